//! Recordings read in place by URL: `http://`, `https://`, `s3://`,
//! `gs://` and `az://` objects, read by byte ranges (the `remote`
//! feature, on by default).
//!
//! A recording's URL goes wherever a path goes: [`is_url`] tells one from
//! a path by its text, and the readers open a `RemoteFile` for it
//! instead of memory-mapping a file. A remote file fetches only the ranges
//! the reader asks for (a bag's header, its index, the chunks read), and
//! fetches the chunks a reader will need next ahead of it, several
//! requests in flight.
//!
//! Correctness over a network: the object's version (its ETag, or its
//! version id or modification time where a store gives no ETag) is pinned
//! when the file is opened, and every later request is conditional on it,
//! so an object replaced while it is read gives a clear error rather than
//! a mix of two versions; transient errors are retried with backoff
//! (`object_store`'s `RetryConfig`); every request has a timeout; a
//! short body or an error after the retries is an error that names the
//! URL and the byte range. Credentials come from each service's standard
//! environment (`AWS_*`, `GOOGLE_*`, `AZURE_*`) and are never printed.
//!
//! `object_store` is async: the requests run on a small runtime of the
//! library's own (two threads, started when the first URL is opened),
//! behind a blocking API, so callers need no runtime and may have one.

use std::path::{Path, PathBuf};

use crate::Error;

/// The URL schemes read remotely.
pub const SCHEMES: [&str; 9] = [
    "http", "https", "s3", "s3a", "gs", "az", "adl", "abfs", "abfss",
];

/// Whether `path` is a URL of a remote object (`scheme://...` with one of
/// [`SCHEMES`]) rather than a local path.
///
/// ```
/// use rsbag::storage::remote::is_url;
/// assert!(is_url("https://example.org/a.bag".as_ref()));
/// assert!(is_url("s3://bucket/a.bag".as_ref()));
/// assert!(!is_url("recordings/a.bag".as_ref()));
/// ```
pub fn is_url(path: &Path) -> bool {
    let Some(text) = path.to_str() else {
        return false;
    };
    text.split_once("://").is_some_and(|(scheme, rest)| {
        !rest.is_empty() && SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme))
    })
}

/// The URL as it may be shown: without its query (a presigned URL's
/// signature) or user information.
fn shown(url: &str) -> String {
    let without_query = url.split(['?', '#']).next().unwrap_or(url);
    match without_query.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('/') {
            Some((authority, path)) => {
                let host = authority.rsplit('@').next().unwrap_or(authority);
                format!("{scheme}://{host}/{path}")
            }
            None => format!("{scheme}://{}", rest.rsplit('@').next().unwrap_or(rest)),
        },
        None => without_query.to_owned(),
    }
}

/// An error reading `url`, as an I/O error on it.
fn remote_error(url: &str, kind: std::io::ErrorKind, reason: impl Into<String>) -> Error {
    Error::Io {
        path: PathBuf::from(shown(url)),
        error: std::io::Error::new(kind, reason.into()),
    }
}

#[cfg(feature = "remote")]
mod cache;
#[cfg(feature = "remote")]
pub use cache::{parse_size, set_cache_dir, set_cache_max};
#[cfg(feature = "remote")]
mod object;
#[cfg(feature = "remote")]
mod sqlite;
#[cfg(feature = "remote")]
pub(crate) use object::{RemoteFile, MAX_READ_BYTES};

/// Open the `.db3` at `url` read-only through SQLite, its pages read by
/// ranges; and its size.
#[cfg(feature = "remote")]
pub(crate) fn open_sqlite(url: &Path) -> crate::Result<(rusqlite::Connection, u64)> {
    open_sqlite_file(RemoteFile::open(url)?)
}

/// Open the remote `file` read-only through SQLite, its pages read by
/// ranges; and its size.
#[cfg(feature = "remote")]
pub(crate) fn open_sqlite_file(
    file: std::sync::Arc<RemoteFile>,
) -> crate::Result<(rusqlite::Connection, u64)> {
    if !file
        .head()
        .starts_with(crate::storage::FileFormat::Db3.magic())
    {
        return Err(Error::NotADb3(
            "the first bytes are not \"SQLite format 3\"".into(),
        ));
    }
    let size = file.size();
    Ok((sqlite::open(file)?, size))
}

/// The error of the last remote read that failed in SQLite on this
/// thread, which SQLite itself reports as "disk I/O error".
pub(crate) fn take_sqlite_read_error() -> Option<Error> {
    #[cfg(feature = "remote")]
    return sqlite::take_read_error();
    #[cfg(not(feature = "remote"))]
    None
}

/// Without the `remote` feature, a URL is an error that says so.
#[cfg(not(feature = "remote"))]
pub(crate) fn open_sqlite(url: &Path) -> crate::Result<(rusqlite::Connection, u64)> {
    open_sqlite_file(RemoteFile::open(url)?)
}

/// Without the `remote` feature no remote file exists.
#[cfg(not(feature = "remote"))]
pub(crate) fn open_sqlite_file(
    file: std::sync::Arc<RemoteFile>,
) -> crate::Result<(rusqlite::Connection, u64)> {
    match file.never {}
}

/// Without the `remote` feature no remote file exists: opening a URL is an
/// error that says how to get it.
#[cfg(not(feature = "remote"))]
#[derive(Debug)]
pub(crate) struct RemoteFile {
    never: std::convert::Infallible,
}

#[cfg(not(feature = "remote"))]
impl RemoteFile {
    pub(crate) fn open(url: &Path) -> crate::Result<std::sync::Arc<RemoteFile>> {
        Err(remote_error(
            &url.to_string_lossy(),
            std::io::ErrorKind::Unsupported,
            "this rsbag was built without the `remote` feature, which reads recordings by URL",
        ))
    }
    pub(crate) fn url(&self) -> &Path {
        match self.never {}
    }
    pub(crate) fn size(&self) -> u64 {
        match self.never {}
    }
    pub(crate) fn head(&self) -> &bytes::Bytes {
        match self.never {}
    }
    pub(crate) fn read(&self, _: std::ops::Range<u64>) -> crate::Result<bytes::Bytes> {
        match self.never {}
    }
    pub(crate) fn read_cached(
        &self,
        _: std::ops::Range<u64>,
    ) -> Option<crate::Result<bytes::Bytes>> {
        match self.never {}
    }
    pub(crate) fn prefetch(&self, _: std::ops::Range<u64>) {
        match self.never {}
    }
    pub(crate) fn prefetch_many(&self, _: impl IntoIterator<Item = std::ops::Range<u64>>, _: u64) {
        match self.never {}
    }
    pub(crate) fn unpinned_change(&self) -> Option<Error> {
        match self.never {}
    }
    pub(crate) fn damage_or_change(&self, _: Error) -> Error {
        match self.never {}
    }
}

/// Without the `remote` feature, no read is refused for its length.
#[cfg(not(feature = "remote"))]
pub(crate) const MAX_READ_BYTES: u64 = u64::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_told_from_paths_and_shown_without_secrets() {
        for url in [
            "http://h/a.bag",
            "HTTPS://h/a",
            "s3://b/k",
            "gs://b/k",
            "az://c/k",
        ] {
            assert!(is_url(url.as_ref()), "{url}");
        }
        for path in [
            "a.bag",
            "/abs/a.bag",
            "ftp://h/a",
            "http://",
            "C:/x",
            "file.s3://x",
        ] {
            assert!(!is_url(path.as_ref()), "{path}");
        }
        assert_eq!(
            shown("https://user:secret@h:8/a/b.bag?X-Amz-Signature=s#f"),
            "https://h:8/a/b.bag"
        );
        assert_eq!(shown("s3://bucket/key.bag"), "s3://bucket/key.bag");
    }
}
