//! A remote object read by ranges through `object_store`, on the
//! library's own runtime.

use std::collections::VecDeque;
use std::future::Future;
use std::io::ErrorKind;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use object_store::path::Path as ObjectPath;
use object_store::{
    BackoffConfig, GetOptions, GetRange, ObjectMeta, ObjectStore, ObjectStoreScheme, RetryConfig,
};
use parking_lot::{Condvar, Mutex};

use super::{remote_error, shown};
use crate::{Error, Result};

/// Bytes read when a file is opened: a bag's header record (4 KB), a
/// database's first pages, an MCAP file's header.
const HEAD_BYTES: u64 = 64 << 10;

/// Ranges fetched (ahead or on demand) are kept for the reader to come
/// back to, the oldest let go beyond this many bytes.
const KEPT_BYTES: u64 = 128 << 20;

/// ... and this many ranges at most.
const KEPT_FETCHES: usize = 1024;

/// Ranges this small go in multi-range requests (larger ones are fetched
/// each in a request of its own, in parallel).
const MULTI_PART_BYTES: u64 = 1 << 20;

/// A multi-range request asks for this many bytes at most.
const MULTI_REQUEST_BYTES: u64 = 4 << 20;

/// Ranges are made one by coalescing up to this length.
const MERGED_BYTES: u64 = 1 << 20;

/// At most this many ranges go in one multi-range request.
/// (its `Range` header stays within the 8 KB a server takes for a
/// header line).
const RANGES_PER_REQUEST: usize = 128;

/// How long one request may take, end to end, by default
/// (`RSBAG_REMOTE_TIMEOUT`, seconds).
const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// The longest wait between two tries of a request.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// How many times a request that failed transiently is tried again by
/// default (`RSBAG_REMOTE_RETRIES`).
const DEFAULT_RETRIES: usize = 5;

/// A remote object opened for reading by ranges, its version pinned.
pub(crate) struct RemoteFile {
    /// The URL as given.
    url: String,
    /// The URL as shown in messages (no query, no user information).
    shown: PathBuf,
    store: Arc<dyn ObjectStore>,
    location: ObjectPath,
    /// The object as it was when opened: size, ETag, version.
    meta: ObjectMeta,
    /// Its first bytes (up to [`HEAD_BYTES`]).
    head: Bytes,
    /// Ranges being fetched or fetched, the most recent last.
    fetches: Mutex<VecDeque<Arc<Fetch>>>,
    /// The ranges of this version kept on disk, when a cache directory is
    /// set ([`super::set_cache_dir`]).
    disk: Option<Arc<super::cache::DiskCache>>,
}

/// A range being fetched on the runtime, or fetched.
struct Fetch {
    range: Range<u64>,
    result: Mutex<Option<std::result::Result<Bytes, (ErrorKind, String)>>>,
    done: Condvar,
}

impl Fetch {
    /// Wait for the fetch to end; its bytes or its error.
    fn wait(&self) -> std::result::Result<Bytes, (ErrorKind, String)> {
        let mut result = self.result.lock();
        loop {
            if let Some(result) = result.as_ref() {
                return result.clone();
            }
            self.done.wait(&mut result);
        }
    }

    fn finish(&self, result: std::result::Result<Bytes, (ErrorKind, String)>) {
        *self.result.lock() = Some(result);
        self.done.notify_all();
    }

    fn is_done(&self) -> bool {
        self.result.lock().is_some()
    }
}

impl std::fmt::Debug for RemoteFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteFile")
            .field("url", &self.shown)
            .field("size", &self.meta.size)
            .field("e_tag", &self.meta.e_tag)
            .finish_non_exhaustive()
    }
}

impl RemoteFile {
    /// Open the object at `url`: read its first bytes, and pin its version.
    pub(crate) fn open(url: &Path) -> Result<Arc<RemoteFile>> {
        let text = url.to_str().unwrap_or_default().to_owned();
        let fail = |kind, reason: String| remote_error(&text, kind, reason);
        let parsed = url::Url::parse(&text)
            .map_err(|e| fail(ErrorKind::InvalidInput, format!("not a valid URL: {e}")))?;
        let (store, location) = store_for(&parsed).map_err(|e| {
            fail(
                ErrorKind::InvalidInput,
                format!("cannot read this URL: {e}"),
            )
        })?;
        let (meta, head) = match open_head(&store, &location) {
            Err((_, reason)) if reason == NO_RANGES && parsed.scheme().starts_with("http") => {
                whole_object(&text, &location)
            }
            opened => opened,
        }
        .map_err(|(kind, reason)| fail(kind, format!("cannot open: {reason}")))?;
        let disk = super::cache::DiskCache::open(&text, &version_of(&meta));
        let file = RemoteFile {
            shown: PathBuf::from(shown(&text)),
            url: text,
            store,
            location,
            meta,
            head,
            fetches: Mutex::new(VecDeque::new()),
            disk,
        };
        if !file.is_pinned() && file.head.len() as u64 != file.meta.size {
            tracing::warn!(
                "{}: the server gives no ETag or Last-Modified, so the version read cannot be \
                 pinned: a change while it is read is found only where the bytes read \
                 contradict the recording's index or its size",
                file.shown.display()
            );
        }
        Ok(Arc::new(file))
    }

    /// For an object whose version is not pinned, the error of a change
    /// when it changed since it was opened (its size or its first bytes,
    /// asked for anew, are not those read then), or the I/O error that
    /// kept them from being asked for; `None` when it did not change, or
    /// when that cannot be told. What tells a changed object from a
    /// damaged one when the bytes read contradict the recording.
    pub(crate) fn unpinned_change(&self) -> Option<Error> {
        if self.is_pinned() || self.head.len() as u64 == self.meta.size {
            return None;
        }
        let (meta, head) = match open_head(&self.store, &self.location) {
            Ok(opened) => opened,
            Err((kind, reason)) => {
                let reason = format!(
                    "the bytes read contradict the recording's index, and whether the object \
                     changed could not be asked: {reason}"
                );
                return Some(remote_error(&self.url, kind, reason));
            }
        };
        (meta.size != self.meta.size || head != self.head).then(|| {
            remote_error(
                &self.url,
                ErrorKind::Other,
                "the object changed while it was read: the bytes read contradict the \
                 recording's index, and its first bytes are no longer those read when it was \
                 opened (the server gives no ETag or Last-Modified to pin a version): open it again",
            )
        })
    }

    /// `error`, met reading this object's recording: damage (bytes that
    /// contradict what was read before) is the error of a change when the
    /// object's version could not be pinned and it is found changed.
    pub(crate) fn damage_or_change(&self, error: Error) -> Error {
        if error.kind() != crate::ErrorKind::Damaged {
            return error;
        }
        self.unpinned_change().unwrap_or(error)
    }

    /// Whether the version opened is pinned: the server named it (an ETag,
    /// a version id or a modification time), so that a request for
    /// another is refused.
    fn is_pinned(&self) -> bool {
        self.meta.e_tag.is_some()
            || self.meta.version.is_some()
            || self.meta.last_modified.timestamp() != 0
    }

    /// The URL, as shown in messages.
    pub(crate) fn url(&self) -> &Path {
        &self.shown
    }

    /// What names this version of the object: its URL, ETag and size.
    pub(crate) fn version_key(&self) -> String {
        format!("{} {}", self.url, version_of(&self.meta))
    }

    /// The object's size in bytes.
    pub(crate) fn size(&self) -> u64 {
        self.meta.size
    }

    /// Its first bytes, read when it was opened (all of a small object).
    pub(crate) fn head(&self) -> &Bytes {
        &self.head
    }

    /// Bytes `range` of the object (clamped to its end): from the head,
    /// from a range fetched or being fetched, or fetched now.
    pub(crate) fn read(&self, range: Range<u64>) -> Result<Bytes> {
        if self.clamp(range.clone()).is_empty() {
            return Ok(Bytes::new());
        }
        if let Some(read) = self.read_cached(range.clone()) {
            return read;
        }
        let range = self.clamp(range);
        self.start_fetch(range.clone());
        self.read_cached(range.clone())
            .unwrap_or_else(|| self.read_now(range))
    }

    /// Bytes `range`, if the head holds them or a range fetched or being
    /// fetched does (waiting for it); `None` otherwise.
    pub(crate) fn read_cached(&self, range: Range<u64>) -> Option<Result<Bytes>> {
        let range = self.clamp(range);
        if range.end <= self.head.len() as u64 {
            return Some(Ok(self
                .head
                .slice(range.start as usize..range.end as usize)));
        }
        let fetch = {
            let fetches = self.fetches.lock();
            fetches
                .iter()
                .rev()
                .find(|f| f.range.start <= range.start && range.end <= f.range.end)
                .cloned()?
        };
        let at = (range.start - fetch.range.start) as usize;
        let end = (range.end - fetch.range.start) as usize;
        Some(match fetch.wait() {
            Ok(bytes) => Ok(bytes.slice(at..end)),
            Err((kind, reason)) => Err(remote_error(&self.url, kind, reason)),
        })
    }

    /// Whether bytes `range` are in the head or in a range fetched or being
    /// fetched (without waiting for it).
    pub(crate) fn is_fetched(&self, range: Range<u64>) -> bool {
        let range = self.clamp(range);
        range.end <= self.head.len() as u64
            || (self.fetches.lock().iter())
                .any(|f| f.range.start <= range.start && range.end <= f.range.end)
    }

    /// Start fetching `range` on the runtime, for a reader that will need
    /// it soon, unless it is fetched or being fetched already.
    pub(crate) fn prefetch(&self, range: Range<u64>) {
        let range = self.clamp(range);
        if range.is_empty() || range.end <= self.head.len() as u64 {
            return;
        }
        let covered = self
            .fetches
            .lock()
            .iter()
            .any(|f| f.range.start <= range.start && range.end <= f.range.end);
        if !covered {
            self.start_fetch(range);
        }
    }

    /// Start fetching `ranges` on the runtime, for a reader that will need
    /// them soon, in as few requests as they allow: ranges within `gap`
    /// bytes of each other are fetched as one (the bytes between them cost
    /// less than a request), and the rest of an `http(s)://` object in one
    /// request for several ranges (a multipart answer), or, where the
    /// server does not answer one, in a request each.
    pub(crate) fn prefetch_many(&self, ranges: impl IntoIterator<Item = Range<u64>>, gap: u64) {
        let groups = {
            let fetches = self.fetches.lock();
            let wanted = ranges.into_iter().map(|r| self.clamp(r)).filter(|r| {
                !r.is_empty()
                    && r.end > self.head.len() as u64
                    && !(fetches.iter()).any(|f| f.range.start <= r.start && r.end <= f.range.end)
            });
            coalesce(wanted.collect(), gap)
        };
        let Ok(runtime) = runtime() else {
            return;
        };
        let groups: Vec<Range<u64>> = match &self.disk {
            Some(disk) => (groups.into_iter())
                .filter(|g| match disk.find(g) {
                    Some(bytes) => {
                        self.keep(g.clone()).finish(Ok(bytes));
                        false
                    }
                    None => true,
                })
                .collect(),
            None => groups,
        };
        let (small, large): (Vec<_>, Vec<_>) = (groups.into_iter())
            .partition(|g| self.is_http() && g.end - g.start <= MULTI_PART_BYTES);
        large.into_iter().for_each(|g| self.start_fetch(g));
        for batch in batches(small) {
            if let [single] = &batch[..] {
                self.start_fetch(single.clone());
                continue;
            }
            let fetches: Vec<Arc<Fetch>> = batch.iter().map(|r| self.keep(r.clone())).collect();
            let multi = self.multi_request(batch.clone());
            let singles: Vec<_> = batch.iter().map(|r| self.request(r.clone())).collect();
            let disk = self.disk.clone();
            runtime.spawn(async move {
                let until = tokio::time::Instant::now() + read_deadline();
                match multi.await {
                    Ok(parts) => {
                        for (fetch, part) in fetches.iter().zip(parts) {
                            if let Some(disk) = &disk {
                                disk.store(&fetch.range, &part);
                            }
                            fetch.finish(Ok(part));
                        }
                    }
                    Err(why) => {
                        tracing::debug!("{why}; the ranges are asked for one by one");
                        for (fetch, single) in fetches.into_iter().zip(singles) {
                            let disk = disk.clone();
                            tokio::spawn(async move {
                                // Within the time of one read, the
                                // multi-range request's included.
                                let result = tokio::time::timeout_at(until, single)
                                    .await
                                    .unwrap_or_else(|_| Err(timed_out(read_deadline())));
                                if let (Ok(bytes), Some(disk)) = (&result, disk) {
                                    disk.store(&fetch.range, bytes);
                                }
                                fetch.finish(result)
                            });
                        }
                    }
                }
            });
        }
    }

    /// Whether the object is read over plain HTTP(S) (not a cloud store's
    /// API), which may answer several ranges at once.
    fn is_http(&self) -> bool {
        let scheme = self.url.split_once("://").map_or("", |(s, _)| s);
        scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
    }

    /// One request for all of `ranges` (sorted, apart), conditional on the
    /// version pinned at open; their bytes in order, or why not (then the
    /// ranges are asked for one by one, which retries and reports errors).
    fn multi_request(
        &self,
        ranges: Vec<Range<u64>>,
    ) -> impl Future<Output = std::result::Result<Vec<Bytes>, String>> + Send + 'static {
        let (url, e_tag) = (self.url.clone(), self.meta.e_tag.clone());
        let last_modified = (self.meta.last_modified.timestamp() != 0).then(|| {
            self.meta
                .last_modified
                .format("%a, %d %b %Y %H:%M:%S GMT")
                .to_string()
        });
        // The parts' bytes, with room for each part's headers.
        let most = (ranges.iter()).map(|r| r.end - r.start + 256).sum::<u64>() + 1024;
        async move {
            let client = http_client().map_err(|e| e.to_string())?;
            let spec: Vec<String> = (ranges.iter())
                .map(|r| format!("{}-{}", r.start, r.end - 1))
                .collect();
            let mut request = client
                .get(&url)
                .header("Range", format!("bytes={}", spec.join(",")));
            request = match (&e_tag, &last_modified) {
                (Some(e_tag), _) => request.header("If-Match", e_tag),
                (None, Some(time)) => request.header("If-Unmodified-Since", time),
                (None, None) => request,
            };
            let response = request.send().await.map_err(|e| e.to_string())?;
            if response.status() != reqwest::StatusCode::PARTIAL_CONTENT {
                // Not read: a whole object may follow.
                return Err(format!(
                    "a multi-range request answered {}",
                    response.status()
                ));
            }
            let header = |name: &str| {
                (response.headers().get(name))
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned)
            };
            let other_version = match &e_tag {
                Some(_) => header("etag") != e_tag,
                None => header("last-modified") != last_modified,
            };
            if other_version {
                return Err("a multi-range answer of another version".into());
            }
            let content_type = header("content-type").unwrap_or_default();
            let content_range = header("content-range");
            let mut response = response;
            let mut body = bytes::BytesMut::new();
            while let Some(part) = response.chunk().await.map_err(|e| e.to_string())? {
                if (body.len() + part.len()) as u64 > most {
                    return Err("a multi-range answer longer than the ranges asked for".into());
                }
                body.extend_from_slice(&part);
            }
            let body = body.freeze();
            let parts = match boundary(&content_type) {
                Some(boundary) => multipart_parts(&body, &boundary)?,
                None => vec![(parse_content_range(content_range.as_deref())?, body)],
            };
            parts_of(&ranges, parts)
        }
    }

    /// A range being fetched (or to be) kept for readers; older ranges
    /// that are done go beyond [`KEPT_BYTES`].
    fn keep(&self, range: Range<u64>) -> Arc<Fetch> {
        let fetch = Arc::new(Fetch {
            range,
            result: Mutex::new(None),
            done: Condvar::new(),
        });
        let mut fetches = self.fetches.lock();
        fetches.push_back(fetch.clone());
        let mut kept: u64 = fetches.iter().map(|f| f.range.end - f.range.start).sum();
        while kept > KEPT_BYTES || fetches.len() > KEPT_FETCHES {
            let Some(oldest) = fetches.iter().position(|f| f.is_done()) else {
                break;
            };
            if let Some(gone) = fetches.remove(oldest) {
                kept -= gone.range.end - gone.range.start;
            }
        }
        fetch
    }

    /// A range fetched right now, in this thread, when the runtime cannot
    /// take it (kept nowhere).
    fn read_now(&self, range: Range<u64>) -> Result<Bytes> {
        let fetch = self.request(range);
        run(fetch)?.map_err(|(kind, reason)| remote_error(&self.url, kind, reason))
    }

    fn clamp(&self, range: Range<u64>) -> Range<u64> {
        let end = range.end.min(self.meta.size);
        range.start.min(end)..end
    }

    /// Fetch `range` on the runtime, kept for readers.
    fn start_fetch(&self, range: Range<u64>) {
        let Ok(runtime) = runtime() else {
            return;
        };
        let fetch = self.keep(range.clone());
        if let Some(bytes) = self.disk.as_ref().and_then(|d| d.find(&range)) {
            return fetch.finish(Ok(bytes));
        }
        let (request, disk) = (self.request(range.clone()), self.disk.clone());
        runtime.spawn(async move {
            let result = request.await;
            if let (Ok(bytes), Some(disk)) = (&result, disk) {
                disk.store(&range, bytes);
            }
            fetch.finish(result)
        });
    }

    /// The request for `range`, conditional on the version pinned at open;
    /// its bytes, checked to be all of the range, or what went wrong.
    fn request(
        &self,
        range: Range<u64>,
    ) -> impl Future<Output = std::result::Result<Bytes, (ErrorKind, String)>> + Send + 'static
    {
        // Without an ETag the modification time pins the version; without
        // either nothing does (a 1970 date would pin nothing).
        let pinned_time = self.meta.e_tag.is_none() && self.meta.last_modified.timestamp() != 0;
        let options = GetOptions {
            range: Some(GetRange::Bounded(range.clone())),
            if_match: self.meta.e_tag.clone(),
            version: self.meta.version.clone(),
            if_unmodified_since: pinned_time.then_some(self.meta.last_modified),
            ..GetOptions::default()
        };
        let (store, location) = (self.store.clone(), self.location.clone());
        let pinned = self.pinned_version();
        let too_long = range.end - range.start > MAX_READ_BYTES;
        let task = async move {
            let in_range =
                |reason: String| format!("bytes {}..{}: {reason}", range.start, range.end);
            if too_long {
                return Err((
                    ErrorKind::InvalidInput,
                    in_range(format!(
                        "more than the {} MB read at once",
                        MAX_READ_BYTES >> 20
                    )),
                ));
            }
            let result = store
                .get_opts(&location, options)
                .await
                .map_err(|e| changed_or(&e, &in_range))?;
            if version_pinned(&result.meta) != pinned {
                return Err((ErrorKind::Other, in_range(changed())));
            }
            let bytes = body_within(result, range.end - range.start)
                .await
                .map_err(|(kind, reason)| (kind, in_range(reason)))?;
            if bytes.len() as u64 != range.end - range.start {
                return Err((
                    ErrorKind::UnexpectedEof,
                    in_range(format!(
                        "the server sent {} bytes of them (a cut-off response)",
                        bytes.len()
                    )),
                ));
            }
            Ok(bytes)
        };
        within(read_deadline(), task)
    }

    /// What of the version opened every answer must repeat.
    fn pinned_version(&self) -> (Option<String>, u64, Option<i64>) {
        version_pinned(&self.meta)
    }
}

/// What of an object's version every answer must repeat: its ETag, its
/// size, and its modification time where it has no ETag (a server may
/// not honour `If-Unmodified-Since`, but says what it sends).
fn version_pinned(meta: &ObjectMeta) -> (Option<String>, u64, Option<i64>) {
    let time = meta.e_tag.is_none().then(|| meta.last_modified.timestamp());
    (meta.e_tag.clone(), meta.size, time)
}

/// Why a request for a range failed when the server sent the whole object
/// instead (it does not answer range requests).
const NO_RANGES: &str = "the server does not answer range requests (it sends the whole object)";

/// An object read whole, when its server does not answer range requests,
/// at most this long.
const WHOLE_OBJECT_BYTES: u64 = 256 << 20;

/// A read of more than this many bytes at once is refused: what the
/// reader asks for comes from the file (a chunk's span, an index), and
/// memory stays bounded whatever the file says.
pub(crate) const MAX_READ_BYTES: u64 = 256 << 20;

/// Open `location`: its first bytes ([`HEAD_BYTES`]) and its version.
fn open_head(
    store: &Arc<dyn ObjectStore>,
    location: &ObjectPath,
) -> std::result::Result<(ObjectMeta, Bytes), (ErrorKind, String)> {
    let options = GetOptions {
        range: Some(GetRange::Bounded(0..HEAD_BYTES)),
        ..GetOptions::default()
    };
    let (store, location) = (store.clone(), location.clone());
    let task = within(read_deadline(), async move {
        let result = store
            .get_opts(&location, options)
            .await
            .map_err(|e| describe(&e))?;
        let (meta, range) = (result.meta.clone(), result.range.clone());
        let head = body_within(result, range.end - range.start).await?;
        if head.len() as u64 != range.end - range.start || range.start != 0 {
            return Err((
                ErrorKind::UnexpectedEof,
                format!(
                    "bytes 0..{}: the server sent {} bytes of them",
                    range.end,
                    head.len()
                ),
            ));
        }
        Ok((meta, head))
    });
    run(task).map_err(|e| (ErrorKind::Other, e.to_string()))?
}

/// All of the object at `url`, from a server that does not answer range
/// requests: read in one request (with a warning) when it is at most
/// [`WHOLE_OBJECT_BYTES`] long, refused otherwise.
fn whole_object(
    url: &str,
    location: &ObjectPath,
) -> std::result::Result<(ObjectMeta, Bytes), (ErrorKind, String)> {
    let (url, location) = (url.to_owned(), location.clone());
    let shown = shown(&url);
    let task = within(read_deadline(), async move {
        let client = http_client().map_err(|e| (ErrorKind::Other, e.to_string()))?;
        let failed = |e: reqwest::Error| {
            (
                ErrorKind::Other,
                format!("{NO_RANGES}, and reading it whole failed: {e}"),
            )
        };
        let response = client.get(&url).send().await.map_err(failed)?;
        if !response.status().is_success() {
            return Err((
                ErrorKind::Other,
                format!(
                    "{NO_RANGES}, and reading it whole was answered {}",
                    response.status()
                ),
            ));
        }
        let too_long = || {
            (
                ErrorKind::Unsupported,
                format!(
                    "{NO_RANGES}, and it is longer than the {} MB read whole: serve it from a \
                     server that answers range requests (nginx, Apache, S3) or download it",
                    WHOLE_OBJECT_BYTES >> 20
                ),
            )
        };
        if response
            .content_length()
            .is_some_and(|n| n > WHOLE_OBJECT_BYTES)
        {
            return Err(too_long());
        }
        let header = |name: &str| {
            (response.headers().get(name))
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let e_tag = header("etag");
        let last_modified = header("last-modified")
            .and_then(|t| chrono::DateTime::parse_from_rfc2822(&t).ok())
            .map(|t| t.with_timezone(&chrono::Utc))
            .unwrap_or_default();
        tracing::warn!(
            "{shown}: {NO_RANGES}: all of it is read at once ({} MB at most)",
            WHOLE_OBJECT_BYTES >> 20
        );
        let mut response = response;
        let mut body = bytes::BytesMut::new();
        while let Some(part) = response.chunk().await.map_err(failed)? {
            if (body.len() + part.len()) as u64 > WHOLE_OBJECT_BYTES {
                return Err(too_long());
            }
            body.extend_from_slice(&part);
        }
        let meta = ObjectMeta {
            location,
            last_modified,
            size: body.len() as u64,
            e_tag,
            version: None,
        };
        Ok((meta, body.freeze()))
    });
    run(task).map_err(|e| (ErrorKind::Other, e.to_string()))?
}

/// The body of a request's answer, `expected` bytes long: more is an
/// error (a server that sends more than asked for is not read on).
async fn body_within(
    result: object_store::GetResult,
    expected: u64,
) -> std::result::Result<Bytes, (ErrorKind, String)> {
    use futures_util::StreamExt;
    let mut stream = result.into_stream();
    let mut body = bytes::BytesMut::with_capacity(expected as usize);
    while let Some(part) = stream.next().await {
        let part = part.map_err(|e| describe(&e))?;
        if (body.len() + part.len()) as u64 > expected {
            return Err((
                ErrorKind::InvalidData,
                format!("the server sent more than the {expected} bytes asked for"),
            ));
        }
        body.extend_from_slice(&part);
    }
    Ok(body.freeze())
}

/// `task`, given up (an error that says so) after `deadline`.
async fn within<T>(
    deadline: Duration,
    task: impl Future<Output = std::result::Result<T, (ErrorKind, String)>>,
) -> std::result::Result<T, (ErrorKind, String)> {
    (tokio::time::timeout(deadline, task).await).unwrap_or_else(|_| Err(timed_out(deadline)))
}

/// A read given up after `deadline`, in words.
fn timed_out(deadline: Duration) -> (ErrorKind, String) {
    (
        ErrorKind::TimedOut,
        format!(
            "no complete answer within {} s (a request may take {} s, RSBAG_REMOTE_TIMEOUT, \
             and is retried meanwhile)",
            deadline.as_secs_f64(),
            timeout().as_secs_f64()
        ),
    )
}

/// The runtime the requests run on: two threads, started once.
fn runtime() -> Result<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<std::result::Result<tokio::runtime::Runtime, String>> =
        OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("rsbag-remote")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| Error::Thread(format!("cannot start the runtime of remote reads: {e}")))
}

/// Run `task` on the runtime and wait for its end, from any thread (one
/// of another runtime's too: the task is spawned, never blocked on).
fn run<T: Send + 'static>(task: impl Future<Output = T> + Send + 'static) -> Result<T> {
    let (sender, receiver) = crossbeam_channel::bounded(1);
    runtime()?.spawn(async move {
        let _ = sender.send(task.await);
    });
    receiver
        .recv()
        .map_err(|_| Error::Thread("a remote read's task panicked".into()))
}

/// What tells this version of an object from another: its ETag, size,
/// version and modification time.
fn version_of(meta: &ObjectMeta) -> String {
    format!(
        "{} {} {} {:?}",
        meta.e_tag.as_deref().unwrap_or(""),
        meta.version.as_deref().unwrap_or(""),
        meta.size,
        meta.last_modified
    )
}

/// `groups` (sorted) in the batches of a multi-range request each: at
/// most [`RANGES_PER_REQUEST`] ranges and about [`MULTI_REQUEST_BYTES`].
fn batches(groups: Vec<Range<u64>>) -> Vec<Vec<Range<u64>>> {
    let mut batches: Vec<Vec<Range<u64>>> = Vec::new();
    let mut bytes = 0;
    for group in groups {
        match batches.last_mut() {
            Some(batch) if batch.len() < RANGES_PER_REQUEST && bytes < MULTI_REQUEST_BYTES => {
                bytes += group.end - group.start;
                batch.push(group);
            }
            _ => {
                bytes = group.end - group.start;
                batches.push(vec![group]);
            }
        }
    }
    batches
}

/// `ranges` sorted, those that overlap or lie within `gap` bytes of each
/// other made one (while it stays within [`MERGED_BYTES`]).
fn coalesce(mut ranges: Vec<Range<u64>>, gap: u64) -> Vec<Range<u64>> {
    ranges.sort_by_key(|r| r.start);
    let mut groups: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match groups.last_mut() {
            Some(last)
                if range.start <= last.end + gap
                    && range.end.max(last.end) - last.start <= MERGED_BYTES =>
            {
                last.end = last.end.max(range.end)
            }
            _ => groups.push(range),
        }
    }
    groups
}

/// The boundary of a `multipart/byteranges` content type.
fn boundary(content_type: &str) -> Option<String> {
    let (kind, params) = content_type.split_once(';')?;
    if !kind.trim().eq_ignore_ascii_case("multipart/byteranges") {
        return None;
    }
    params.split(';').find_map(|param| {
        let (name, value) = param.split_once('=')?;
        (name.trim().eq_ignore_ascii_case("boundary"))
            .then(|| value.trim().trim_matches('"').to_owned())
    })
}

/// The range of a `Content-Range: bytes START-LAST/SIZE` header.
fn parse_content_range(value: Option<&str>) -> std::result::Result<Range<u64>, String> {
    let bad = || format!("a part of a multi-range answer has no valid range ({value:?})");
    let spec = value
        .and_then(|v| v.trim().strip_prefix("bytes "))
        .ok_or_else(bad)?;
    let (span, _size) = spec.split_once('/').ok_or_else(bad)?;
    let (start, last) = span.split_once('-').ok_or_else(bad)?;
    let (start, last): (u64, u64) = (
        start.trim().parse().map_err(|_| bad())?,
        last.trim().parse().map_err(|_| bad())?,
    );
    (start <= last).then_some(start..last + 1).ok_or_else(bad)
}

/// The parts of a `multipart/byteranges` body: each one's range and bytes,
/// its length taken from its `Content-Range` (never by a search for the
/// boundary in the data).
fn multipart_parts(
    body: &Bytes,
    boundary: &str,
) -> std::result::Result<Vec<(Range<u64>, Bytes)>, String> {
    let cut = || "a multi-range answer cut off or malformed".to_owned();
    let delimiter = format!("--{boundary}");
    let find = |from: usize, what: &[u8]| {
        (body.get(from..)?.windows(what.len()))
            .position(|w| w == what)
            .map(|at| from + at)
    };
    let mut parts = Vec::new();
    let mut at = find(0, delimiter.as_bytes()).ok_or_else(cut)?;
    loop {
        at += delimiter.len();
        if body.get(at..at + 2) == Some(b"--") {
            return Ok(parts);
        }
        let headers_end = find(at, b"\r\n\r\n").ok_or_else(cut)?;
        let headers = std::str::from_utf8(&body[at..headers_end]).map_err(|_| cut())?;
        let content_range = headers.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("content-range")
                .then_some(value)
        });
        let range = parse_content_range(content_range)?;
        let start = headers_end + 4;
        let end = start + (range.end - range.start) as usize;
        if end > body.len() {
            return Err(cut());
        }
        parts.push((range, body.slice(start..end)));
        at = find(end, delimiter.as_bytes()).ok_or_else(cut)?;
    }
}

/// The bytes of each of `ranges` out of the `parts` answered, which must
/// cover each of them.
fn parts_of(
    ranges: &[Range<u64>],
    parts: Vec<(Range<u64>, Bytes)>,
) -> std::result::Result<Vec<Bytes>, String> {
    (ranges.iter())
        .map(|r| {
            let (within, bytes) = (parts.iter())
                .find(|(p, _)| p.start <= r.start && r.end <= p.end)
                .ok_or_else(|| {
                    format!("a multi-range answer lacks bytes {}..{}", r.start, r.end)
                })?;
            let at = (r.start - within.start) as usize;
            Ok(bytes.slice(at..at + (r.end - r.start) as usize))
        })
        .collect()
}

/// The HTTP client of multi-range requests, with the timeouts of the
/// store's (built once).
fn http_client() -> Result<&'static reqwest::Client> {
    static CLIENT: OnceLock<std::result::Result<reqwest::Client, String>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            use_ring_for_tls();
            reqwest::Client::builder()
                .timeout(timeout())
                .connect_timeout(timeout_connect())
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| Error::Thread(format!("cannot start an HTTP client: {e}")))
}

/// Make ring the process's TLS provider, which every HTTP client needs
/// before it is built, unless the program already chose one.
fn use_ring_for_tls() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Err: another thread installed one first, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

/// How long a request may take, from `RSBAG_REMOTE_TIMEOUT` (seconds).
fn timeout() -> Duration {
    let secs = std::env::var("RSBAG_REMOTE_TIMEOUT").ok();
    let secs = secs.and_then(|s| s.trim().parse::<f64>().ok());
    secs.filter(|s| s.is_finite() && *s > 0.0).map_or(
        Duration::from_secs(DEFAULT_TIMEOUT_SECS),
        Duration::from_secs_f64,
    )
}

/// Retries with backoff for transient errors (`RSBAG_REMOTE_RETRIES`).
fn retry_config() -> RetryConfig {
    let retries = std::env::var("RSBAG_REMOTE_RETRIES").ok();
    let max_retries = retries.and_then(|s| s.trim().parse().ok());
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: Duration::from_millis(100),
            max_backoff: MAX_BACKOFF,
            base: 2.0,
        },
        max_retries: max_retries.unwrap_or(DEFAULT_RETRIES),
        // A request that timed out is tried once more at least; none
        // starts later than two requests' time after the first.
        retry_timeout: timeout() * 2,
    }
}

/// How long a read may take, its retries included, before it is given
/// up: two requests' time and the longest wait between tries (65 s by
/// default: a stalled server fails a command within that).
fn read_deadline() -> Duration {
    deadline_of(timeout())
}

/// How long a read may take with requests of `timeout` each.
fn deadline_of(timeout: Duration) -> Duration {
    timeout * 2 + MAX_BACKOFF
}

/// The store that holds `url`, configured from the service's standard
/// environment, and the object's path in it.
fn store_for(url: &url::Url) -> object_store::Result<(Arc<dyn ObjectStore>, ObjectPath)> {
    use_ring_for_tls();
    let (scheme, location) = ObjectStoreScheme::parse(url)?;
    let timeout = format!("{}ms", timeout().as_millis());
    let connect_timeout = format!("{}ms", timeout_connect().as_millis());
    // Every builder takes the client's keys by name.
    macro_rules! build {
        ($builder:expr) => {{
            let builder = $builder
                .with_url(url.as_str())
                .with_retry(retry_config())
                .with_config("timeout".parse()?, &timeout)
                .with_config("connect_timeout".parse()?, &connect_timeout);
            Arc::new(builder.build()?) as Arc<dyn ObjectStore>
        }};
    }
    let store = match scheme {
        ObjectStoreScheme::Http => {
            let base = &url[..url::Position::BeforePath];
            let builder = object_store::http::HttpBuilder::new()
                .with_url(base)
                .with_retry(retry_config())
                .with_config("timeout".parse()?, &timeout)
                .with_config("connect_timeout".parse()?, &connect_timeout)
                // An http:// URL asks for plain HTTP.
                .with_config("allow_http".parse()?, (url.scheme() == "http").to_string());
            Arc::new(builder.build()?) as Arc<dyn ObjectStore>
        }
        ObjectStoreScheme::AmazonS3 => build!(object_store::aws::AmazonS3Builder::from_env()),
        ObjectStoreScheme::GoogleCloudStorage => {
            build!(object_store::gcp::GoogleCloudStorageBuilder::from_env())
        }
        ObjectStoreScheme::MicrosoftAzure => {
            build!(object_store::azure::MicrosoftAzureBuilder::from_env())
        }
        _ => {
            return Err(object_store::Error::NotSupported {
                source: "not a remote URL".into(),
            })
        }
    };
    Ok((store, location))
}

/// How long connecting may take: at most the request's timeout.
fn timeout_connect() -> Duration {
    timeout().min(Duration::from_secs(10))
}

/// The kind and words of an error of the store: what went wrong, in a
/// line (a status, "connection refused", a timeout), never the server's
/// page of text.
fn describe(error: &object_store::Error) -> (ErrorKind, String) {
    use object_store::Error as E;
    match error {
        E::NotFound { .. } => return (ErrorKind::NotFound, "not found (HTTP 404)".into()),
        E::PermissionDenied { .. } => {
            return (
                ErrorKind::PermissionDenied,
                "access denied (HTTP 403): check the credentials".into(),
            )
        }
        E::Unauthenticated { .. } => {
            return (
                ErrorKind::PermissionDenied,
                "not authenticated (HTTP 401): check the credentials".into(),
            )
        }
        _ => {}
    }
    let chain = std::iter::successors(Some(error as &(dyn std::error::Error + 'static)), |e| {
        e.source()
    });
    let mut deepest = String::new();
    for cause in chain {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            let words = match io.kind() {
                ErrorKind::ConnectionRefused => "connection refused (nothing listens there)",
                ErrorKind::ConnectionReset => "connection reset by the server",
                ErrorKind::TimedOut => "timed out",
                _ => "",
            };
            if !words.is_empty() {
                return (io.kind(), words.into());
            }
        }
        if let Some(http) = cause.downcast_ref::<object_store::client::HttpError>() {
            if matches!(http.kind(), object_store::client::HttpErrorKind::Timeout) {
                let words = format!(
                    "no answer within {} s (RSBAG_REMOTE_TIMEOUT), tried again meanwhile",
                    timeout().as_secs_f64()
                );
                return (ErrorKind::TimedOut, words);
            }
        }
        let text = cause.to_string();
        if let Some(status) = text.strip_prefix("Server returned non-2xx status code: ") {
            // The status, not the page that came with it.
            let status = status.split(": ").next().unwrap_or(status);
            return (
                ErrorKind::Other,
                format!("the server answered HTTP {status}"),
            );
        }
        if let Some(body) = text.strip_prefix("Server returned error response: ") {
            let first: String = body
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(200)
                .collect();
            return (
                ErrorKind::Other,
                format!("the server answered an error: {first}"),
            );
        }
        if text.contains("end of file before message length reached") {
            return (
                ErrorKind::UnexpectedEof,
                "a cut-off answer: the connection closed before its body ended".into(),
            );
        }
        if text.starts_with("Range request not supported")
            || text.starts_with("Received non-partial response")
        {
            return (ErrorKind::Unsupported, NO_RANGES.into());
        }
        deepest = text;
    }
    (ErrorKind::Other, deepest)
}

/// An error of a request: the object changed since it was opened, or
/// what the store says, in the words `in_range` gives with the range.
fn changed_or(
    error: &object_store::Error,
    in_range: &impl Fn(String) -> String,
) -> (ErrorKind, String) {
    match error {
        object_store::Error::Precondition { .. } => (ErrorKind::Other, in_range(changed())),
        _ => {
            let (kind, reason) = describe(error);
            (kind, in_range(reason))
        }
    }
}

fn changed() -> String {
    "the object changed since it was opened (its version no longer matches); \
     nothing of the new version was read: open it again"
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default bound on a read (the scaled-down bound is run against
    /// a stalled server by cli/tests/remote.rs).
    #[test]
    fn a_stalled_read_is_given_up_within_90_s_by_default() {
        let default = deadline_of(Duration::from_secs(DEFAULT_TIMEOUT_SECS));
        assert!(default <= Duration::from_secs(90), "{default:?}");
        assert_eq!(deadline_of(Duration::from_secs(1)), Duration::from_secs(7));
    }

    #[test]
    fn close_ranges_are_fetched_as_one() {
        let far = 1000;
        assert_eq!(
            coalesce(vec![far..far + 5, 0..10, 5..20, 30..40], 10),
            vec![0..40, far..far + 5]
        );
        let big = MERGED_BYTES - 10;
        assert_eq!(coalesce(vec![0..big, big..big + 20], 10).len(), 2);
        let many = (0..300).map(|i| i * 100..i * 100 + 10).collect();
        let sizes: Vec<usize> = batches(many).iter().map(Vec::len).collect();
        assert_eq!(sizes, [RANGES_PER_REQUEST, RANGES_PER_REQUEST, 44]);
    }

    #[test]
    fn multipart_answers_are_split_by_their_ranges() {
        let body = Bytes::from_static(
            b"\r\n--B\r\nContent-Type: x\r\nContent-Range: bytes 2-4/100\r\n\r\n--B\r\n--B\r\n\
              Content-Range: bytes 50-51/100\r\n\r\nxy\r\n--B--\r\n",
        );
        assert_eq!(
            boundary("multipart/byteranges; boundary=B").as_deref(),
            Some("B")
        );
        let parts = multipart_parts(&body, "B").unwrap();
        assert_eq!(parts[0], (2..5, Bytes::from_static(b"--B")));
        assert_eq!(parts[1], (50..52, Bytes::from_static(b"xy")));
        let ranges = parts_of(&[3..5, 50..52], parts).unwrap();
        assert_eq!(
            ranges,
            vec![Bytes::from_static(b"-B"), Bytes::from_static(b"xy")]
        );
        assert!(multipart_parts(&body.slice(..70), "B").is_err());
        let outside = [10..12, 50..51];
        assert!(parts_of(&outside, multipart_parts(&body, "B").unwrap()).is_err());
    }
}
