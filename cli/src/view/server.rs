//! The viewer's HTTP server: the page, its script and style, and the
//! answers of an [`Api`]: a recording's document and its frames, or a live
//! camera's (see [`super::live`]). Nothing else is served: requests name a
//! stream and a frame position, never a path, so nothing outside the
//! recording can be read through it.

use std::collections::VecDeque;
use std::io::Cursor;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use rsbag::device::StreamId;
use rsbag::playback::{FrameReader, RecordedFrame};
use rsbag::{Error, Result};
use socket2::{Domain, Protocol, Socket, Type};
use tiny_http::{Header, Method, Request, Response, Server};

use super::depth::DepthSettings;
use super::page;

/// Threads answering requests: frames of several streams are read at once.
const WORKERS: usize = 4;
/// How often an idle worker looks whether the server is stopping.
const STOP_POLL: Duration = Duration::from_millis(200);

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

/// What the server serves for a recording.
pub struct Site {
    pub reader: FrameReader,
    /// The frames read last (cheap handles: the pixels are shared).
    pub recent: Mutex<VecDeque<RecordedFrame>>,
    /// The recording's document (see [`super::model`]).
    pub document: String,
    /// Each stream, by the key the page names it with, and its depth units
    /// (depth streams).
    pub streams: Vec<(String, StreamId, Option<f32>)>,
    /// The point clouds of the depth streams (see [`super::cloud`]).
    pub clouds: Vec<super::cloud::CloudMaker>,
}

/// A running server: stops when dropped.
pub struct Running {
    address: SocketAddr,
    server: Arc<Server>,
    stop: Arc<AtomicBool>,
    /// Each worker says here that it ended.
    ended: crossbeam_channel::Receiver<()>,
}

impl Running {
    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }
}

/// How long stopping waits for a worker still sending to a browser that
/// stopped reading (the process then ends it).
const STOP_WAIT: Duration = Duration::from_secs(2);

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.server.unblock();
        let deadline = std::time::Instant::now() + STOP_WAIT;
        for _ in 0..WORKERS {
            if self.ended.recv_deadline(deadline).is_err() {
                break;
            }
        }
    }
}

/// Listen on `address` and answer requests on worker threads.
pub fn start(site: Arc<dyn Api>, address: SocketAddr) -> Result<Running> {
    let cannot = |e: &dyn std::fmt::Display| {
        Error::InvalidArgument(format!("cannot serve the viewer on {address}: {e}"))
    };
    let server = Server::from_listener(listener(address).map_err(|e| cannot(&e))?, None)
        .map_err(|e| cannot(&e))?;
    let address = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| Error::InvalidArgument(format!("cannot serve the viewer on {address}")))?;
    let hosts = Arc::new(allowed_hosts(address));
    let server = Arc::new(server);
    let stop = Arc::new(AtomicBool::new(false));
    let (ended_tx, ended) = crossbeam_channel::bounded(WORKERS);
    for _ in 0..WORKERS {
        let (server, site, stop, hosts) =
            (server.clone(), site.clone(), stop.clone(), hosts.clone());
        let ended_tx = ended_tx.clone();
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if let Ok(Some(request)) = server.recv_timeout(STOP_POLL) {
                    answer(&*site, hosts.as_deref(), request);
                }
            }
            let _ = ended_tx.send(());
        });
    }
    Ok(Running {
        address,
        server,
        stop,
        ended,
    })
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

/// A listening socket whose connections send without delay: with Nagle's
/// algorithm, the last piece of a frame waits for the browser's delayed
/// acknowledgement (40 ms on Linux). Connections take the setting from
/// the listener on Linux; tiny_http offers no way to set it on each.
fn listener(address: SocketAddr) -> std::io::Result<std::net::TcpListener> {
    let socket = Socket::new(
        Domain::for_address(address),
        Type::STREAM,
        Some(Protocol::TCP),
    )?;
    socket.set_reuse_address(true)?;
    socket.set_tcp_nodelay(true)?;
    socket.bind(&address.into())?;
    socket.listen(128)?;
    Ok(socket.into())
}

/// An answer.
pub type Reply = Response<Cursor<Vec<u8>>>;

fn answer(site: &dyn Api, hosts: Option<&[String]>, request: Request) {
    let header = |name: &'static str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_owned())
    };
    let (host, origin) = (header("Host"), header("Origin"));
    let from_the_page =
        origin.is_some_and(|o| host.as_ref().is_some_and(|h| o == format!("http://{h}")));
    let method = request.method().clone();
    let path = request.url().split('?').next().unwrap_or_default();
    let reply = match (hosts, host) {
        (Some(hosts), host) if !host.as_ref().is_some_and(|h| hosts.contains(h)) => text(
            403,
            &format!("this server answers only as http://{}/", hosts[0]),
        ),
        // What changes something (starting a recording) is done for the
        // page only: a browser names the page that asks, and another site's
        // page must not start a recording here.
        _ if method == Method::Post && !from_the_page && site.takes_post(path) => {
            text(403, "only the viewer's own page may ask this")
        }
        _ => route(site, &method, request.url()),
    };
    // A browser that went away is not an error of ours.
    let _ = request.respond(reply);
}

fn route(site: &dyn Api, method: &Method, url: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let get = matches!(method, Method::Get | Method::Head);
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
        if !matches!(method, Method::Get | Method::Head) {
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
/// the stream, at most W pixels wide if given (see [`super::payload`]).
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
    let Some((_, stream, units)) = site.streams.iter().find(|(k, _, _)| *k == key) else {
        return text(404, &format!("the recording has no stream {key}"));
    };
    let settings = match DepthSettings::from_query(query_pairs(query)) {
        Ok(settings) => settings,
        Err(e) => return text(400, &e.to_string()),
    };
    let encoded = read_frame(site, *stream, index).and_then(|mut recorded| {
        if units.is_some() {
            recorded.frame = settings.process(recorded.frame)?;
        }
        super::payload::encode_colored(&recorded, *units, max_width, settings.colorizer.as_ref())
    });
    match encoded {
        Ok(Some(bytes)) => body(bytes, "application/octet-stream"),
        Ok(None) => text(404, &format!("{key} has no pictures")),
        // No such frame; otherwise the frame is there but cannot be read.
        Err(e) if e.kind() == rsbag::ErrorKind::InvalidArgument => text(404, &e.to_string()),
        Err(e) => text(500, &e.to_string()),
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
    let Some(maker) = site
        .clouds
        .iter()
        .find(|m| super::model::stream_key(m.depth()) == key)
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
    let encoded = read_frame(site, maker.depth(), index).and_then(|depth| {
        let width = depth.frame.resolution().map_or(1, |(w, _)| w);
        let step = max_width.map_or(1, |max| width.div_ceil(max).max(1));
        maker.encode(&site.reader, &depth, &settings, step)
    });
    match encoded {
        Ok(bytes) => body(bytes, "application/octet-stream"),
        Err(e) if e.kind() == rsbag::ErrorKind::InvalidArgument => text(404, &e.to_string()),
        Err(e) => text(500, &e.to_string()),
    }
}

/// A query's `name=value` pairs, values percent-decoded.
fn query_pairs(query: &str) -> impl Iterator<Item = (&str, String)> {
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(name, value)| (name, percent_decode(value)))
}

/// The frame, from the recent ones or read (the lock is not held while
/// reading).
fn read_frame(site: &Site, stream: StreamId, index: u64) -> Result<RecordedFrame> {
    let known = site
        .recent
        .lock()
        .iter()
        .find(|f| f.stream == stream && f.index == index)
        .cloned();
    if let Some(frame) = known {
        return Ok(frame);
    }
    let frame = site.reader.frame(stream, index)?;
    let mut recent = site.recent.lock();
    if recent.len() == RECENT_FRAMES {
        recent.pop_front();
    }
    recent.push_back(frame.clone());
    Ok(frame)
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
pub fn body(bytes: Vec<u8>, content_type: &str) -> Reply {
    // Whole, with its length: chunked encoding (tiny_http's default above
    // 32 KiB) sends a frame in small pieces, and loopback TCP then waits
    // on delayed acknowledgements (tens of milliseconds a frame).
    let mut reply = Response::from_data(bytes).with_chunked_threshold(usize::MAX);
    for (name, value) in [
        ("Content-Type", content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
    ] {
        if let Ok(header) = Header::from_bytes(name, value) {
            reply.add_header(header);
        }
    }
    reply
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
