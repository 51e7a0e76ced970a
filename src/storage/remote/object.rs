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

/// How long one request may take, end to end, by default
/// (`RSBAG_REMOTE_TIMEOUT`, seconds).
const DEFAULT_TIMEOUT_SECS: u64 = 60;

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
        let options = GetOptions {
            range: Some(GetRange::Bounded(0..HEAD_BYTES)),
            ..GetOptions::default()
        };
        let opened = {
            let (store, location) = (store.clone(), location.clone());
            run(async move {
                let result = store.get_opts(&location, options).await?;
                let meta = result.meta.clone();
                let range = result.range.clone();
                Ok::<_, object_store::Error>((meta, range, result.bytes().await?))
            })?
        };
        let (meta, range, head) = opened.map_err(|e| {
            let (kind, reason) = describe(&e);
            fail(kind, format!("cannot open: {reason}"))
        })?;
        if head.len() as u64 != range.end - range.start || range.start != 0 {
            return Err(fail(
                ErrorKind::UnexpectedEof,
                format!(
                    "bytes 0..{}: the server sent {} bytes of them",
                    range.end,
                    head.len()
                ),
            ));
        }
        let file = RemoteFile {
            shown: PathBuf::from(shown(&text)),
            url: text,
            store,
            location,
            meta,
            head,
            fetches: Mutex::new(VecDeque::new()),
        };
        if file.meta.e_tag.is_none() && file.meta.version.is_none() {
            tracing::debug!(
                "{}: the server gives no ETag; changes are told by the modification time",
                file.shown.display()
            );
        }
        Ok(Arc::new(file))
    }

    /// The URL, as shown in messages.
    pub(crate) fn url(&self) -> &Path {
        &self.shown
    }

    /// What names this version of the object: its URL, ETag and size.
    pub(crate) fn version_key(&self) -> String {
        let e_tag = self.meta.e_tag.as_deref().unwrap_or("");
        format!(
            "{} {e_tag} {} {:?}",
            self.url, self.meta.size, self.meta.last_modified
        )
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

    /// Fetch `range` on the runtime, kept for readers; older ranges that
    /// are done go beyond [`KEPT_BYTES`].
    fn start_fetch(&self, range: Range<u64>) {
        let Ok(runtime) = runtime() else {
            return;
        };
        let fetch = Arc::new(Fetch {
            range: range.clone(),
            result: Mutex::new(None),
            done: Condvar::new(),
        });
        {
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
        }
        let request = self.request(range);
        runtime.spawn(async move { fetch.finish(request.await) });
    }

    /// The request for `range`, conditional on the version pinned at open;
    /// its bytes, checked to be all of the range, or what went wrong.
    fn request(
        &self,
        range: Range<u64>,
    ) -> impl Future<Output = std::result::Result<Bytes, (ErrorKind, String)>> + Send + 'static
    {
        let options = GetOptions {
            range: Some(GetRange::Bounded(range.clone())),
            if_match: self.meta.e_tag.clone(),
            version: self.meta.version.clone(),
            if_unmodified_since: match self.meta.e_tag {
                None => Some(self.meta.last_modified),
                Some(_) => None,
            },
            ..GetOptions::default()
        };
        let (store, location) = (self.store.clone(), self.location.clone());
        let pinned = (self.meta.e_tag.clone(), self.meta.size);
        async move {
            let in_range =
                |reason: String| format!("bytes {}..{}: {reason}", range.start, range.end);
            let result = store
                .get_opts(&location, options)
                .await
                .map_err(|e| changed_or(&e, &in_range))?;
            if (result.meta.e_tag.clone(), result.meta.size) != pinned {
                return Err((ErrorKind::Other, in_range(changed())));
            }
            let bytes = result
                .bytes()
                .await
                .map_err(|e| changed_or(&e, &in_range))?;
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
        }
    }
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
            max_backoff: Duration::from_secs(5),
            base: 2.0,
        },
        max_retries: max_retries.unwrap_or(DEFAULT_RETRIES),
        retry_timeout: Duration::from_secs(180),
    }
}

/// The store that holds `url`, configured from the service's standard
/// environment, and the object's path in it.
fn store_for(url: &url::Url) -> object_store::Result<(Arc<dyn ObjectStore>, ObjectPath)> {
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

/// The kind and words of an error of the store.
fn describe(error: &object_store::Error) -> (ErrorKind, String) {
    let kind = match error {
        object_store::Error::NotFound { .. } => ErrorKind::NotFound,
        object_store::Error::PermissionDenied { .. }
        | object_store::Error::Unauthenticated { .. } => ErrorKind::PermissionDenied,
        _ => ErrorKind::Other,
    };
    (kind, error.to_string())
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
