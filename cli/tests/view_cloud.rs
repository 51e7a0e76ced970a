//! `rsbag view`'s 3D view and depth colours in a real browser (Debian's
//! Chromium, headless, driven by `viewer/tests/cloud.mjs`): the point
//! cloud drawn with WebGL puts each point where `rsbag convert --to ply`
//! puts it, in the PLY's colour, as the page opens, after turning it with
//! the mouse, and in an exported report; the depth picture in each of
//! librealsense's colour schemes, equalized or over a range, shows
//! exactly what pyrealsense2 2.55's `rs.colorizer` makes of that frame as
//! librealsense plays it (tests/interop/rs_colorize_bag.py); with the
//! depth filter toggles on, the depth the page receives is what `rsbag
//! convert --filter` (tested against librealsense's filters) writes of
//! that frame.

use crate::common;
use crate::run;
use crate::served;

use std::path::Path;

use base64::Engine as _;
use serde_json::Value;
use served::Served;

const SAMPLE: &str = "librealsense-depth-color-lz4";
/// The depth frame looked at (its position in the stream).
const INDEX: u64 = 3;

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// What cloud.mjs reports of the page at `url`.
fn browse(url: &str, extra: &[&str]) -> Value {
    served::browse("cloud.mjs", url, extra)
}

fn bytes(b64: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(b64.as_str().expect("base64 text"))
        .expect("base64")
}

/// A vertex of a PLY file and its colour.
struct Vertex {
    xyz: [f32; 3],
    rgb: [u8; 3],
}

/// The vertices of a binary PLY file as `rsbag convert --to ply` writes
/// it (x, y, z as floats, then red, green, blue).
fn read_ply(path: &Path) -> Vec<Vertex> {
    let data = std::fs::read(path).expect("read the PLY");
    let end = b"end_header\n";
    let at = data
        .windows(end.len())
        .position(|w| w == end)
        .expect("a PLY header")
        + end.len();
    let header = String::from_utf8_lossy(&data[..at]);
    assert!(
        header.contains("format binary_little_endian 1.0") && header.contains("property uchar red"),
        "{header}"
    );
    let count: usize = header
        .lines()
        .find_map(|l| l.strip_prefix("element vertex "))
        .expect("vertex count")
        .parse()
        .expect("count");
    let body = &data[at..];
    assert_eq!(body.len(), count * 15, "{path:?}");
    body.chunks_exact(15)
        .map(|v| {
            let f = |i: usize| f32::from_le_bytes([v[i], v[i + 1], v[i + 2], v[i + 3]]);
            Vertex {
                xyz: [f(0), f(4), f(8)],
                rgb: [v[12], v[13], v[14]],
            }
        })
        .collect()
}

/// Where the page's camera puts a point: canvas pixels from the top
/// left and the depth in normalized device coordinates (-1 near to 1
/// far), or `None` behind the camera.
fn project(matrices: &Value, p: [f32; 3]) -> Option<[f64; 3]> {
    let m = |key: &str| -> Vec<f64> {
        matrices[key]
            .as_array()
            .expect("matrix")
            .iter()
            .map(|v| v.as_f64().expect("number"))
            .collect()
    };
    // Column-major 4x4 matrices, as three.js keeps them.
    let times = |m: &[f64], v: [f64; 4]| -> [f64; 4] {
        std::array::from_fn(|r| (0..4).map(|c| m[4 * c + r] * v[c]).sum())
    };
    let eye = times(
        &m("view"),
        [f64::from(p[0]), f64::from(p[1]), f64::from(p[2]), 1.0],
    );
    let clip = times(&m("projection"), eye);
    if clip[3] <= 0.0 {
        return None;
    }
    let ndc = [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
    let (w, h) = (
        matrices["width"].as_f64().expect("width"),
        matrices["height"].as_f64().expect("height"),
    );
    Some([(ndc[0] + 1.0) / 2.0 * w, (1.0 - ndc[1]) / 2.0 * h, ndc[2]])
}

/// Every point of the PLY that lands on the canvas with no other point
/// near enough to cover its pixel shows the PLY's colour there; returns
/// how many were checked.
fn assert_drawn_where_the_ply_puts_it(shown: &Value, ply: &[Vertex]) -> usize {
    let matrices = &shown["matrices"];
    let size = matrices["point_size"].as_f64().expect("point size");
    let (w, h) = (
        shown["canvas"]["width"].as_u64().expect("w") as usize,
        shown["canvas"]["height"].as_u64().expect("h") as usize,
    );
    let rgba = bytes(&shown["canvas"]["rgba"]);
    // The points drawn: between the near and far planes.
    let at: Vec<Option<[f64; 2]>> = ply
        .iter()
        .map(|v| {
            project(matrices, v.xyz)
                .filter(|p| p[2].abs() <= 1.0)
                .map(|p| [p[0], p[1]])
        })
        .collect();
    // The page's own projection agrees with its matrices.
    for p in shown["projected"].as_array().expect("projected") {
        let point: Vec<f32> = p["point"]
            .as_array()
            .expect("point")
            .iter()
            .map(|c| c.as_f64().expect("c") as f32)
            .collect();
        let ours = project(matrices, [point[0], point[1], point[2]]).expect("before the camera");
        let theirs = [
            p["at"]["x"].as_f64().expect("x"),
            p["at"]["y"].as_f64().expect("y"),
        ];
        assert!(
            (ours[0] - theirs[0]).abs() < 1e-3 && (ours[1] - theirs[1]).abs() < 1e-3,
            "{ours:?} {theirs:?}"
        );
    }
    let mut checked = 0;
    for (i, (vertex, place)) in ply.iter().zip(&at).enumerate() {
        let Some([x, y]) = *place else { continue };
        let (px, py) = (x.floor(), y.floor());
        if px < 0.0 || py < 0.0 || px as usize >= w || py as usize >= h {
            continue;
        }
        let covered_by_another = at.iter().enumerate().any(|(j, other)| {
            j != i
                && other.is_some_and(|[ox, oy]| {
                    (ox - (px + 0.5)).abs() <= size / 2.0 + 1.0
                        && (oy - (py + 0.5)).abs() <= size / 2.0 + 1.0
                })
        });
        if covered_by_another {
            continue;
        }
        let k = 4 * (py as usize * w + px as usize);
        assert_eq!(
            &rgba[k..k + 3],
            &vertex.rgb,
            "vertex {i} {:?} at pixel ({px}, {py})",
            vertex.xyz
        );
        checked += 1;
    }
    checked
}

/// The PLY `rsbag convert --to ply` writes of the cloud the page shows.
fn ply_of(shown: &Value, clouds: &Path) -> Vec<Vertex> {
    let number = shown["header"]["number"].as_u64().expect("number");
    let ply = read_ply(&clouds.join(format!("Depth_{number:06}.ply")));
    assert_eq!(
        shown["header"]["count"].as_u64(),
        Some(ply.len() as u64),
        "{}",
        shown["header"]
    );
    ply
}

#[test]
fn the_3d_view_puts_each_point_where_rsbags_ply_puts_it_in_its_colour() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::sample(&format!("{SAMPLE}.bag"));
    let clouds = dir.path().join("clouds");
    run::ok(&["convert", s(&bag), "--to", "ply", "--out", s(&clouds)]);
    let served = Served::start(&bag);
    let page = browse(&served.url, &["--index", &INDEX.to_string()]);
    drop(served);

    let shown = &page["cloud"];
    assert_eq!(shown["header"]["index"].as_u64(), Some(INDEX));
    assert_eq!(shown["header"]["color"]["stream"], "Color 0");
    let ply = ply_of(shown, &clouds);
    // Opening from the depth camera, every point lands on a pixel of its
    // own (the 64x48 depth spread over the canvas).
    let checked = assert_drawn_where_the_ply_puts_it(shown, &ply);
    assert!(checked * 10 >= ply.len() * 9, "{checked} of {}", ply.len());
    // Dragging turns the view: the points move, and still land where the
    // camera puts them.
    assert_ne!(
        shown["matrices"]["view"],
        page["orbited"]["matrices"]["view"]
    );
    let checked = assert_drawn_where_the_ply_puts_it(&page["orbited"], &ply);
    assert!(checked >= 100, "{checked} of {}", ply.len());
}

#[test]
fn a_sessions_3d_view_shows_the_depth_stream_chosen_from_its_own_camera() {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = common::sample(&format!("{SAMPLE}.bag"));
    // Another camera: depth of another size and lens, with colour.
    let second = dir.path().join("second.bag");
    run::ok(&[
        "record",
        "--synthetic",
        "--duration",
        "0.5",
        "--depth",
        "80x60@30",
        "--color",
        "80x60@30",
        "--out",
        s(&second),
    ]);
    let clouds = dir.path().join("clouds");
    run::ok(&["convert", s(&second), "--to", "ply", "--out", s(&clouds)]);
    let session = rsbag::recording::Session::open([&first, &second]).expect("session");
    let keys: Vec<String> = (session.files().iter())
        .map(|f| format!("{}/Depth 0", f.name()))
        .collect();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command.args(["view", s(&first), s(&second), "--no-browser"]);
    let served = Served::run(command);
    let page = browse(&served.url, &["--cloud-stream", &keys[1], "--index", "2"]);
    drop(served);
    assert_eq!(page["cloud"]["header"]["index"].as_u64(), Some(2));
    assert_shows_the_chosen_camera(&page, &keys, &clouds);
    // The exported report holds every camera's clouds (80 columns: each
    // whole).
    let report = dir.path().join("report.html");
    run::ok_not_one_session(&["view", s(&first), s(&second), "--export", s(&report)]);
    let url = format!("file://{}", s(&report));
    let page = browse(&url, &["--cloud-stream", &keys[1], "--index", "2"]);
    assert_shows_the_chosen_camera(&page, &keys, &clouds);
}

/// The 3D view's list holds each camera's depth (`keys`) and showed the
/// first's; the second's, chosen, is drawn as its PLY (in `clouds`) from
/// its own camera: the canvas has its picture's shape (80x60) and the
/// view its lens's field of view.
fn assert_shows_the_chosen_camera(page: &Value, keys: &[String], clouds: &Path) {
    assert_eq!(page["cloud_streams"], serde_json::json!(keys), "{page}");
    assert_eq!(page["first_cloud"]["width"].as_u64(), Some(64));
    let shown = &page["cloud"];
    let header = &shown["header"];
    assert_eq!(header["width"].as_u64(), Some(80), "{header}");
    assert_eq!(header["step"].as_u64(), Some(1), "{header}");
    let (w, h) = (
        shown["canvas"]["width"].as_f64().expect("w"),
        shown["canvas"]["height"].as_f64().expect("h"),
    );
    assert!((w / h - 80.0 / 60.0).abs() < 0.01, "{w}x{h}");
    let fy = header["intrinsics"]["fy"].as_f64().expect("fy");
    let focal = shown["matrices"]["projection"][5]
        .as_f64()
        .expect("projection");
    assert!(
        (focal - 2.0 * fy / 60.0).abs() < 1e-4,
        "{focal} for fy {fy}"
    );
    let ply = ply_of(shown, clouds);
    let checked = assert_drawn_where_the_ply_puts_it(shown, &ply);
    assert!(checked * 10 >= ply.len() * 9, "{checked} of {}", ply.len());
}

#[test]
fn the_exported_report_holds_the_3d_view() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::sample(&format!("{SAMPLE}.bag"));
    let clouds = dir.path().join("clouds");
    run::ok(&["convert", s(&bag), "--to", "ply", "--out", s(&clouds)]);
    let report = dir.path().join("report.html");
    run::ok(&["view", s(&bag), "--export", s(&report)]);
    let page = browse(&format!("file://{}", s(&report)), &["--index", "9"]);
    let shown = &page["cloud"];
    // 64x48 depth: the report holds every frame's whole cloud.
    assert_eq!(shown["header"]["index"].as_u64(), Some(9));
    assert_eq!(shown["header"]["step"].as_u64(), Some(1));
    let ply = ply_of(shown, &clouds);
    let checked = assert_drawn_where_the_ply_puts_it(shown, &ply);
    assert!(checked * 10 >= ply.len() * 9, "{checked} of {}", ply.len());
}

#[test]
fn the_depth_view_shows_librealsenses_colour_schemes_exactly() {
    let bag = common::sample(&format!("{SAMPLE}.bag"));
    let served = Served::start(&bag);
    let page = browse(&served.url, &["--index", &INDEX.to_string(), "--schemes"]);
    drop(served);
    let schemes = page["schemes"].as_array().expect("schemes");
    assert_eq!(schemes.len(), 20);
    let header = &schemes[0]["header"];
    let (near, far) = (
        schemes[0]["near"].to_string(),
        schemes[0]["far"].to_string(),
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let number = header["number"].to_string();
    common::python(
        "rs_colorize_bag.py",
        &[s(&bag), &number, &near, &far, s(dir.path())],
    );
    let mut pictures = std::collections::HashSet::new();
    for shown in schemes {
        assert_eq!(shown["header"]["colors"], "rgb8", "{}", shown["header"]);
        assert_eq!(shown["header"]["number"], header["number"]);
        // The depth is librealsense's own bytes of that frame.
        let depth = std::fs::read(dir.path().join("depth.raw")).expect("depth");
        assert_eq!(bytes(&shown["values"]), depth);
        let equalized = u8::from(shown["equalize"] == true);
        let theirs = std::fs::read(
            dir.path()
                .join(format!("rgb_{}_{equalized}.raw", shown["scheme"])),
        )
        .expect("librealsense's colours");
        let drawn: Vec<u8> = bytes(&shown["rgba"])
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        assert!(
            drawn == theirs,
            "scheme {} equalized {equalized}: the picture differs from librealsense's colorizer",
            shown["scheme"]
        );
        pictures.insert(drawn);
    }
    // Every scheme, equalized or not, is a picture of its own.
    assert_eq!(pictures.len(), 20);
}

/// The vertex count of a PLY file.
fn ply_vertex_count(path: &Path) -> u64 {
    let data = std::fs::read(path).expect("read the PLY");
    String::from_utf8_lossy(&data[..data.len().min(1000)])
        .lines()
        .find_map(|l| l.strip_prefix("element vertex "))
        .expect("vertex count")
        .parse()
        .expect("count")
}

/// `rsbag convert FILE --to TARGET --filter SPEC...` of the depth stream,
/// into `out`.
fn convert_filtered(bag: &Path, to: &str, specs: &Value, out: &Path) {
    let mut args = vec!["convert", s(bag), "--to", to, "--streams", "depth"];
    for spec in specs.as_array().expect("specs") {
        args.extend(["--filter", spec.as_str().expect("spec")]);
    }
    args.extend(["--out", s(out)]);
    run::ok(&args);
}

/// The viewer of `bag` at depth frame `index`, with the decimation toggle
/// on, then every filter toggle on: the chain the page sends is
/// `expected` (for both); the depth the page receives is what `rsbag
/// convert --filter` writes of that frame; the 3D view's cloud is of the
/// filtered depth (convert's PLY's vertex count), fewer vertices than
/// without the filters. `index` is at most 8: the temporal filter's window
/// (the 8 frames before the one shown) then starts at the stream's first
/// frame, as convert's does, so the whole chain is compared.
fn check_filter_toggles(bag: &Path, index: u64, expected: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let served = Served::start(bag);
    let page = browse(&served.url, &["--index", &index.to_string(), "--filters"]);
    drop(served);
    let plain = &page["cloud"]["header"];
    let (decimated, filtered) = (&page["decimated"], &page["filtered"]);
    assert_eq!(
        decimated["filters"],
        serde_json::json!(["decimation:magnitude=2"])
    );
    assert_eq!(filtered["filters"], serde_json::json!(expected));
    for (k, shown) in [decimated, filtered].into_iter().enumerate() {
        let header = &shown["header"];
        assert_eq!(header["index"].as_u64(), Some(index));
        assert_eq!(shown["cloud"]["index"].as_u64(), Some(index));
        assert!(
            header["width"].as_u64() < plain["width"].as_u64(),
            "{header}"
        );
        let number = header["number"].as_u64().expect("number");
        let raw = dir.path().join(format!("raw{k}"));
        convert_filtered(bag, "raw", &shown["filters"], &raw);
        let converted =
            std::fs::read(raw.join(format!("Depth_{number:06}.raw"))).expect("convert's frame");
        let size = header["width"].as_u64().expect("w") * header["height"].as_u64().expect("h");
        assert_eq!(converted.len() as u64, size * 2);
        assert!(
            bytes(&shown["values"]) == converted,
            "{}: the depth shown differs from convert's",
            shown["filters"]
        );
        let cloud = &shown["cloud"];
        assert_eq!(
            (&cloud["width"], &cloud["height"]),
            (&header["width"], &header["height"])
        );
        let ply = dir.path().join(format!("ply{k}"));
        convert_filtered(bag, "ply", &shown["filters"], &ply);
        assert_eq!(
            cloud["count"].as_u64(),
            Some(ply_vertex_count(
                &ply.join(format!("Depth_{number:06}.ply"))
            )),
            "{}",
            shown["filters"]
        );
        assert!(cloud["count"].as_u64() < plain["count"].as_u64(), "{cloud}");
    }
    assert_ne!(decimated["values"], filtered["values"]);
}

#[test]
fn the_filter_toggles_show_the_depth_convert_filters() {
    // A depth camera without a stereo baseline: no disparity.
    let bag = common::sample(&format!("{SAMPLE}.bag"));
    check_filter_toggles(
        &bag,
        INDEX,
        &[
            "decimation:magnitude=2",
            "threshold:min=0.15,max=4",
            "spatial:alpha=0.5",
            "temporal:alpha=0.4",
            "hole-filling:mode=1",
        ],
    );
}

#[test]
fn the_filter_toggles_run_spatial_and_temporal_in_disparity_for_stereo_depth() {
    // Written by librealsense: a stereo depth sensor (its baseline
    // recorded), with noise, holes and a moving box.
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("stereo.bag");
    common::python("rs_filters.py", &["record", s(&bag), "--frames", "12"]);
    check_filter_toggles(
        &bag,
        8,
        &[
            "decimation:magnitude=2",
            "threshold:min=0.15,max=4",
            "depth-to-disparity",
            "spatial:alpha=0.5",
            "temporal:alpha=0.4",
            "disparity-to-depth",
            "hole-filling:mode=1",
        ],
    );
}

/// Colour frames recorded six frames after their depth frames (a busy
/// machine): the 3D view colours a depth frame with the colour frame of
/// its timestamp, as `convert --to ply` pairs them.
#[test]
fn the_3d_view_colours_a_depth_frame_with_its_colour_frame_however_late_it_arrived() {
    use common::rs;
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("late.bag");
    rs::write_captured_at(&bag, 20, Default::default(), |profile, n| {
        let late = if profile.stream.kind == rsbag::device::StreamKind::Color {
            6
        } else {
            0
        };
        (n + late) * rs::PERIOD_NS
    });
    let served = Served::start(&bag);
    let address = served
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let mut stream = std::net::TcpStream::connect(&address).expect("connect");
    let request = format!(
        "GET /api/cloud?stream=Depth%200&index=10 HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    );
    std::io::Write::write_all(&mut stream, request.as_bytes()).expect("request");
    let mut answer = Vec::new();
    std::io::Read::read_to_end(&mut stream, &mut answer).expect("answer");
    drop(served);
    let body_at = (answer.windows(4).position(|w| w == b"\r\n\r\n")).expect("headers") + 4;
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer[..body_at])
    );
    let body = &answer[body_at..];
    let length = u32::from_le_bytes(body[..4].try_into().expect("length")) as usize;
    let header: Value = serde_json::from_slice(&body[4..4 + length]).expect("header");
    assert_eq!(header["number"], 11, "{header}");
    assert_eq!(header["color"]["number"], 11, "{header}");
}
