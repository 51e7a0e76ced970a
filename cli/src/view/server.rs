//! The viewer's HTTP server: the page, its script and style, and the
//! answers of an [`Api`]: a recording's document and its frames, or a live
//! camera's (see [`super::live`]). Nothing else is served: requests name a
//! stream and a frame position, never a path, so nothing outside the
//! recording can be read through it.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use parking_lot::Mutex;
use rsbag::device::StreamId;
use rsbag::recording::{FrameReader, Pieces, RecordedFrame, Session};
use rsbag::{Error, Result};
use socket2::{Domain, Protocol, Socket, Type};
use tokio::runtime::Runtime;

pub use hyper::Method;

use super::depth::DepthSettings;
use super::page;

/// Threads answering requests: frames of several streams are read at once.
/// Connections are not tied to them: each request waits for the next free
/// one, however many connections a browser keeps open.
const WORKERS: usize = 4;
/// How long the server waits after failing to accept a connection (out of
/// file descriptors, say) before trying again.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// Frames kept after reading: the page asks for a frame twice (a preview,
/// then whole), and a compressed chunk is then decompressed once.
const RECENT_FRAMES: usize = 8;

/// What a server answers under `/api/`, besides the page it serves.
pub trait Api: Send + Sync + 'static {
    /// The page, as served.
    fn page(&self) -> String {
        page::served()
    }

    /// Whether a POST to `path` does something (starts a recording): it
    /// is then answered only when the page itself asks (see [`answer`]).
    fn takes_post(&self, _path: &str) -> bool {
        false
    }

    /// The answer to `method` on `path` (`/api/...`) with `query` (the
    /// part after `?`).
    fn answer(&self, method: &Method, path: &str, query: &str) -> Reply;
}

/// Whether `method` only reads (GET, or HEAD: the same answer's headers).
pub fn reads(method: &Method) -> bool {
    *method == Method::GET || *method == Method::HEAD
}

/// What the server serves for a recording, or for several as one
/// session.
pub struct Site {
    pub recordings: Recordings,
    /// The frames read last, with their camera (cheap handles: the pixels
    /// are shared).
    pub recent: Mutex<VecDeque<(usize, RecordedFrame)>>,
    /// The page's document (see [`super::model`], [`super::cameras`]).
    pub document: String,
    /// Each lane of the timeline whose frames the page asks for.
    pub lanes: Vec<Lane>,
    /// The point clouds of the depth streams (see [`super::cloud`]), with
    /// the camera each belongs to.
    pub clouds: Vec<(usize, super::cloud::CloudMaker)>,
}

/// The recordings a [`Site`] reads from.
pub enum Recordings {
    One(Box<FrameReader>),
    Session(Session),
    /// The pieces of one split recording, read as one (camera 0).
    Pieces(Box<Pieces>),
}

/// A stream as the page names it (`Depth 0`; `CAM-A/Depth 0` in a
/// session): the recording (camera) and stream it is, its depth units
/// (depth streams), and the order of its frames on the page.
pub struct Lane {
    pub key: String,
    /// Position of the recording in the session (0 for one recording).
    pub camera: usize,
    pub stream: StreamId,
    pub units: Option<f32>,
    /// In a session: the stream's frames (their positions in the stream)
    /// in time order on the session's clock, which the page counts in;
    /// `None`: the page counts in the stream's own positions.
    pub order: Option<Vec<u64>>,
}

impl Site {
    /// The reader of recording `camera`.
    /// (Of pieces, the first piece's: the description.)
    pub fn reader(&self, camera: usize) -> &FrameReader {
        match &self.recordings {
            Recordings::One(reader) => reader,
            Recordings::Session(session) => session.files()[camera].reader(),
            Recordings::Pieces(pieces) => pieces.pieces()[0].reader(),
        }
    }

    /// The lane the page names `key`.
    pub fn lane(&self, key: &str) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.key == key)
    }

    /// How many frames the lane has.
    pub fn frame_count(&self, lane: &Lane) -> Result<u64> {
        match &lane.order {
            Some(order) => Ok(order.len() as u64),
            None => match &self.recordings {
                Recordings::Pieces(pieces) => pieces.frame_count(lane.stream),
                _ => self.reader(lane.camera).frame_count(lane.stream),
            },
        }
    }

    /// The frame at `position` of `lane` as the page counts (its `index`
    /// is that position), from the recent ones or read (the lock is not
    /// held while reading).
    pub fn frame(&self, lane: &Lane, position: u64) -> Result<RecordedFrame> {
        let index = match &lane.order {
            None => position,
            Some(order) => *usize::try_from(position)
                .ok()
                .and_then(|p| order.get(p))
                .ok_or_else(|| {
                    Error::InvalidArgument(format!(
                        "{} has {} frames, not {}",
                        lane.key,
                        order.len(),
                        position + 1
                    ))
                })?,
        };
        let mut frame = self.read_frame(lane.camera, lane.stream, index)?;
        frame.index = position;
        Ok(frame)
    }

    fn read_frame(&self, camera: usize, stream: StreamId, index: u64) -> Result<RecordedFrame> {
        let known = (self.recent.lock().iter())
            .find(|(c, f)| *c == camera && f.stream == stream && f.index == index)
            .map(|(_, f)| f.clone());
        if let Some(frame) = known {
            return Ok(frame);
        }
        let frame = match &self.recordings {
            Recordings::Pieces(pieces) => pieces.frame(stream, index)?,
            _ => self.reader(camera).frame(stream, index)?,
        };
        let mut recent = self.recent.lock();
        if recent.len() == RECENT_FRAMES {
            recent.pop_front();
        }
        recent.push_back((camera, frame.clone()));
        Ok(frame)
    }

    /// The cloud maker of a lane's depth stream, if it has one.
    pub fn cloud_maker(&self, lane: &Lane) -> Option<&super::cloud::CloudMaker> {
        (self.clouds.iter())
            .find(|(c, m)| *c == lane.camera && m.depth() == lane.stream)
            .map(|(_, m)| m)
    }
}

/// A running server: stops when dropped.
pub struct Running {
    address: SocketAddr,
    /// Accepts and reads connections, and runs the answers on its
    /// blocking threads.
    runtime: Option<Runtime>,
}

impl Running {
    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }
}

/// How long stopping waits for an answer still being made (the process
/// then ends it).
const STOP_WAIT: Duration = Duration::from_secs(2);

impl Drop for Running {
    fn drop(&mut self) {
        // Ends every connection and the listener at once; answers being
        // made are waited for, for STOP_WAIT at most.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_timeout(STOP_WAIT);
        }
    }
}

/// Listen on `address` and answer requests on worker threads.
pub fn start(site: Arc<dyn Api>, address: SocketAddr) -> Result<Running> {
    let cannot = |e: &dyn std::fmt::Display| {
        Error::InvalidArgument(format!("cannot serve the viewer on {address}: {e}"))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .max_blocking_threads(WORKERS)
        .thread_name("rsbag-view")
        .enable_all()
        .build()
        .map_err(|e| cannot(&e))?;
    let listener = listener(address).map_err(|e| cannot(&e))?;
    let address = listener.local_addr().map_err(|e| cannot(&e))?;
    let listener = {
        let _inside = runtime.enter();
        tokio::net::TcpListener::from_std(listener).map_err(|e| cannot(&e))?
    };
    let hosts: Arc<Option<Vec<String>>> = Arc::new(allowed_hosts(address));
    runtime.spawn(accept(listener, site, hosts));
    Ok(Running {
        address,
        runtime: Some(runtime),
    })
}

/// Accept connections, each read and answered as a task of its own.
async fn accept(
    listener: tokio::net::TcpListener,
    site: Arc<dyn Api>,
    hosts: Arc<Option<Vec<String>>>,
) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                tokio::time::sleep(ACCEPT_RETRY).await;
                continue;
            }
        };
        // Without delay: with Nagle's algorithm, the last piece of a frame
        // waits for the browser's delayed acknowledgement (40 ms on Linux).
        let _ = stream.set_nodelay(true);
        let (site, hosts) = (site.clone(), hosts.clone());
        let service = hyper::service::service_fn(move |request| {
            respond(site.clone(), hosts.clone(), request)
        });
        tokio::spawn(async move {
            // A browser that went away is not an error of ours.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The answer to `request`, made on a blocking thread (reading and
/// decompressing frames takes time).
async fn respond(
    site: Arc<dyn Api>,
    hosts: Arc<Option<Vec<String>>>,
    request: Request<Incoming>,
) -> std::result::Result<Response<Full<Bytes>>, Infallible> {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (host, origin) = (header("Host"), header("Origin"));
    let fetched_from = header("Sec-Fetch-Site");
    let method = request.method().clone();
    let url = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let made = tokio::task::spawn_blocking(move || {
        let asker = Asker {
            host,
            origin,
            fetched_from,
        };
        answer(&*site, (*hosts).as_deref(), &method, asker, &url)
    })
    .await;
    let reply = made.unwrap_or_else(|_| text(500, "the answer could not be made"));
    Ok(reply.into_response())
}

/// The `Host` headers answered when serving on a loopback address (`None`:
/// any, on other addresses). A web page elsewhere could otherwise point a
/// name of its own at 127.0.0.1 (DNS rebinding) and read the recording.
fn allowed_hosts(address: SocketAddr) -> Option<Vec<String>> {
    address.ip().is_loopback().then(|| {
        let port = address.port();
        vec![address.to_string(), format!("localhost:{port}")]
    })
}

/// A listening socket (non-blocking, for tokio) that can be opened again on
/// the same port at once after the viewer stops.
fn listener(address: SocketAddr) -> std::io::Result<std::net::TcpListener> {
    let socket = Socket::new(
        Domain::for_address(address),
        Type::STREAM,
        Some(Protocol::TCP),
    )?;
    socket.set_reuse_address(true)?;
    socket.set_nonblocking(true)?;
    socket.bind(&address.into())?;
    socket.listen(128)?;
    Ok(socket.into())
}

/// An answer: a status and a whole body (sent with its Content-Length: a
/// body sent in small pieces makes loopback TCP wait on delayed
/// acknowledgements, tens of milliseconds a frame).
pub struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Reply {
    /// The same answer with `status`.
    pub fn with_status_code(self, status: u16) -> Reply {
        Reply { status, ..self }
    }

    fn into_response(self) -> Response<Full<Bytes>> {
        let mut response = Response::new(Full::new(Bytes::from(self.body)));
        *response.status_mut() =
            StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        response
    }
}

/// Who asks, as the request's headers say.
struct Asker {
    /// `Host`.
    host: Option<String>,
    /// `Origin`: the page that asks, where a browser names it.
    origin: Option<String>,
    /// `Sec-Fetch-Site`: how the asking page stands to this server, where
    /// a browser says it.
    fetched_from: Option<String>,
}

impl Asker {
    /// Whether a browser says another site's page asks (not this page,
    /// and not the user, typing an address). Any web page open in the
    /// same browser could otherwise ask for frames blind, keeping the
    /// workers busy.
    fn is_another_site(&self) -> bool {
        self.fetched_from
            .as_deref()
            .is_some_and(|site| !matches!(site, "same-origin" | "none"))
    }
}

fn answer(
    site: &dyn Api,
    hosts: Option<&[String]>,
    method: &Method,
    asker: Asker,
    url: &str,
) -> Reply {
    let from_the_page = asker.origin.as_ref().is_some_and(|o| {
        asker
            .host
            .as_ref()
            .is_some_and(|h| *o == format!("http://{h}"))
    });
    let path = url.split('?').next().unwrap_or_default();
    match (hosts, &asker.host) {
        (Some(hosts), host) if !host.as_ref().is_some_and(|h| hosts.contains(h)) => text(
            403,
            &format!("this server answers only as http://{}/", hosts[0]),
        ),
        _ if path.starts_with("/api/") && asker.is_another_site() => {
            text(403, "only the viewer's own page may ask this")
        }
        // What changes something (starting a recording) is done for the
        // page only: a browser names the page that asks, and another site's
        // page must not start a recording here.
        _ if *method == Method::POST && !from_the_page && site.takes_post(path) => {
            text(403, "only the viewer's own page may ask this")
        }
        _ => route(site, method, url),
    }
}

fn route(site: &dyn Api, method: &Method, url: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let get = reads(method);
    match path {
        "/" | "/index.html" if get => body(site.page().into_bytes(), "text/html; charset=utf-8"),
        "/viewer.js" if get => body(
            page::SCRIPT.as_bytes().to_vec(),
            "text/javascript; charset=utf-8",
        ),
        "/viewer.css" if get => body(page::STYLE.as_bytes().to_vec(), "text/css; charset=utf-8"),
        "/" | "/index.html" | "/viewer.js" | "/viewer.css" => text(405, "only GET is served"),
        _ if path.starts_with("/api/") => site.answer(method, path, query),
        _ => text(404, "not found"),
    }
}

impl Api for Site {
    fn answer(&self, method: &Method, path: &str, query: &str) -> Reply {
        if !reads(method) {
            return text(405, "only GET is served");
        }
        match path {
            "/api/recording" => body(self.document.clone().into_bytes(), "application/json"),
            "/api/frame" => frame(self, query),
            "/api/cloud" => cloud(self, query),
            _ => text(404, "not found"),
        }
    }
}

/// `/api/frame?stream=Depth%200&index=K[&max_width=W]`: the K-th frame of
/// the stream (of a session's lane, `stream=CAM-A/Depth%200`: the K-th on
/// the session's clock), at most W pixels wide if given (see
/// [`super::payload`]).
fn frame(site: &Site, query: &str) -> Reply {
    let (mut key, mut index, mut max_width) = (None, None, None);
    for (name, value) in query.split('&').filter_map(|p| p.split_once('=')) {
        match name {
            "stream" => key = Some(percent_decode(value)),
            "index" => index = value.parse::<u64>().ok(),
            "max_width" => max_width = value.parse::<u32>().ok().filter(|&w| w > 0),
            _ => {}
        }
    }
    let (Some(key), Some(index)) = (key, index) else {
        return text(400, "give stream=NAME&index=K");
    };
    let Some(lane) = site.lane(&key) else {
        return text(404, &format!("the recording has no stream {key}"));
    };
    let settings = match DepthSettings::from_query(query_pairs(query)) {
        Ok(settings) => settings,
        Err(e) => return text(400, &e.to_string()),
    };
    let mut recorded = match site.frame(lane, index) {
        Ok(recorded) => recorded,
        Err(e) => return not_read(e),
    };
    if lane.units.is_some() {
        match settings.process(site.reader(lane.camera), &recorded) {
            Ok(frame) => recorded.frame = frame,
            Err(e) => return not_processed(e),
        }
    }
    let colorizer = settings.colorizer.as_ref();
    let encoded = super::payload::encode_colored(&recorded, lane.units, max_width, colorizer);
    match encoded {
        Ok(Some(bytes)) => body(bytes, "application/octet-stream"),
        Ok(None) => text(404, &format!("{key} has no pictures")),
        Err(e) => not_read(e),
    }
}

/// The answer when a frame cannot be read or encoded: no such frame (404),
/// or the frame is there but cannot be read (500).
fn not_read(e: Error) -> Reply {
    match e.kind() {
        rsbag::ErrorKind::InvalidArgument => text(404, &e.to_string()),
        _ => text(500, &e.to_string()),
    }
}

/// The answer when the depth settings asked for cannot be applied to a
/// frame (filters this recording lacks the facts for: 400).
fn not_processed(e: Error) -> Reply {
    match e.kind() {
        rsbag::ErrorKind::InvalidArgument => text(400, &e.to_string()),
        _ => text(500, &e.to_string()),
    }
}

/// `/api/cloud?stream=Depth%200&index=K[&max_width=W]` (and the depth
/// settings of [`super::depth`]): the point cloud of the K-th depth frame
/// (of every n-th pixel of every n-th row, for at most W columns), see
/// [`super::cloud`].
fn cloud(site: &Site, query: &str) -> Reply {
    let (mut key, mut index, mut max_width) = (None, None, None);
    for (name, value) in query_pairs(query) {
        match name {
            "stream" => key = Some(value),
            "index" => index = value.parse::<u64>().ok(),
            "max_width" => max_width = value.parse::<u32>().ok().filter(|&w| w > 0),
            _ => {}
        }
    }
    let (Some(key), Some(index)) = (key, index) else {
        return text(400, "give stream=NAME&index=K");
    };
    let Some((lane, maker)) = site
        .lane(&key)
        .and_then(|lane| Some((lane, site.cloud_maker(lane)?)))
    else {
        return text(
            404,
            &format!("{key} has no point cloud (not depth with intrinsics)"),
        );
    };
    let settings = match DepthSettings::from_query(query_pairs(query)) {
        Ok(settings) => settings,
        Err(e) => return text(400, &e.to_string()),
    };
    let depth = match site.frame(lane, index) {
        Ok(depth) => depth,
        Err(e) => return not_read(e),
    };
    let reader = site.reader(lane.camera);
    let processed = match settings.process(reader, &depth) {
        Ok(processed) => processed,
        Err(e) => return not_processed(e),
    };
    match maker.encode(reader, &depth, &processed, &settings, max_width) {
        Ok(bytes) => body(bytes, "application/octet-stream"),
        Err(e) => not_read(e),
    }
}

/// A query's `name=value` pairs, values percent-decoded.
fn query_pairs(query: &str) -> impl Iterator<Item = (&str, String)> {
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(name, value)| (name, percent_decode(value)))
}

/// The value of `name` in a query (`a=1&b=2`), percent-decoded.
pub fn query_value(query: &str, name: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| percent_decode(v))
}

/// `%20` and `+` back to what they stand for (stream names are ASCII).
fn percent_decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match hex_byte(bytes.get(i + 1..i + 3)) {
                Some(b) => {
                    out.push(b);
                    i += 2;
                }
                None => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The byte two hex digits stand for.
fn hex_byte(digits: Option<&[u8]>) -> Option<u8> {
    let digits = digits?;
    if !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u8::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
}

/// `bytes` whole, as `content_type`.
pub fn body(bytes: Vec<u8>, content_type: &'static str) -> Reply {
    Reply {
        status: 200,
        content_type,
        body: bytes,
    }
}

/// `message` as plain text with `status`.
pub fn text(status: u16, message: &str) -> Reply {
    body(message.as_bytes().to_vec(), "text/plain; charset=utf-8").with_status_code(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_names_are_percent_decoded() {
        assert_eq!(percent_decode("Depth%200"), "Depth 0");
        assert_eq!(percent_decode("Infrared+1"), "Infrared 1");
        assert_eq!(percent_decode("bad%2"), "bad%2");
        assert_eq!(percent_decode("%zz"), "%zz");
        // Not hex after `%`: kept as it is (`+` is a space).
        assert_eq!(percent_decode("%+1"), "% 1");
    }
}
