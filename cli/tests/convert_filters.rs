//! `convert --filter` against the real librealsense 2.55: a depth
//! recording it writes in the test (tests/interop/rs_filters.py record:
//! noise, holes, flickering holes, a moving box, odd size), the same
//! filters run by pyrealsense2 over its frames in recorded order
//! (rs_filters.py process), and rsbag's output compared frame by frame,
//! byte for byte, with the output's format, size and intrinsics.

use crate::common;
use crate::run;

use std::path::Path;

use run::{ok, rsbag};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A depth recording by librealsense of `frames` frames.
fn recording(dir: &Path, frames: u32) -> String {
    let bag = dir.join("depth.bag");
    let count = frames.to_string();
    common::python("rs_filters.py", &["record", s(&bag), "--frames", &count]);
    s(&bag).to_owned()
}

/// `--filter` arguments of a chain written as space-separated specs.
fn filter_args(chain: &str) -> Vec<&str> {
    chain
        .split_whitespace()
        .flat_map(|spec| ["--filter", spec])
        .collect()
}

/// What librealsense's filters make of `bag`, as an .npz.
fn reference(bag: &str, chain: &str, out: &Path) -> String {
    let mut args = vec!["process", bag, s(out)];
    args.extend(filter_args(chain));
    common::python("rs_filters.py", &args);
    s(out).to_owned()
}

/// Each chain through `convert --to raw --streams depth` equals
/// librealsense's. librealsense filters every chain in one process
/// (`ref<k>.npz`), and one process compares them all.
fn check_chains(frames: u32, chains: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = recording(dir.path(), frames);
    let out_dir = s(dir.path());
    let mut args = vec!["process-each", &bag, out_dir];
    args.extend(chains);
    common::python("rs_filters.py", &args);
    let mut pairs = vec!["compare-dir".to_owned()];
    for (k, chain) in chains.iter().enumerate() {
        // Named in a failure's output: which ref<k> is which chain.
        eprintln!("ref{k}: {chain}");
        let out = dir.path().join(format!("out{k}"));
        let mut args = vec!["convert", &bag, "--to", "raw", "--streams", "depth"];
        args.extend(filter_args(chain));
        args.extend(["--out", s(&out)]);
        let said = ok(&args);
        assert!(said.contains("depth filtered"), "{chain}: {said}");
        let npz = dir.path().join(format!("ref{k}.npz"));
        pairs.extend([s(&npz).to_owned(), s(&out).to_owned()]);
    }
    let pairs: Vec<&str> = pairs.iter().map(String::as_str).collect();
    let compared = common::python("rs_filters.py", &pairs);
    let equal = format!("{frames} frames equal");
    assert_eq!(
        compared.lines().filter(|l| *l == equal).count(),
        chains.len(),
        "{compared}"
    );
}

#[test]
fn decimation_threshold_and_disparity_equal_librealsense() {
    check_chains(
        12,
        &[
            "decimation",
            "decimation:magnitude=1",
            "decimation:magnitude=3",
            "decimation:magnitude=4",
            "decimation:magnitude=5",
            "decimation:magnitude=8",
            "threshold",
            "threshold:min=0.5,max=2",
            "threshold:min=0,max=16",
            // Past the other end: librealsense moves the other end away.
            "threshold:min=5",
            "threshold:max=0.1",
            "depth-to-disparity",
            "depth-to-disparity disparity-to-depth",
            "decimation:magnitude=3 depth-to-disparity",
        ],
    );
}

#[test]
fn spatial_and_hole_filling_equal_librealsense() {
    check_chains(
        8,
        &[
            "spatial",
            "spatial:alpha=0.25,delta=1,magnitude=1",
            "spatial:alpha=1,delta=50,magnitude=5",
            "spatial:alpha=0.37,delta=33,magnitude=3,holes-fill=3",
            "spatial:holes-fill=5",
            "depth-to-disparity spatial:alpha=0.6,delta=8",
            "depth-to-disparity spatial:alpha=0.25,delta=1,magnitude=5,holes-fill=2",
            "hole-filling:mode=0",
            "hole-filling",
            "hole-filling:mode=2",
            "depth-to-disparity hole-filling:mode=0",
            "depth-to-disparity hole-filling:mode=1",
            "depth-to-disparity hole-filling:mode=2",
        ],
    );
}

#[test]
fn temporal_state_over_many_frames_equals_librealsense() {
    check_chains(
        45,
        &[
            "temporal",
            "temporal:alpha=0,delta=1,persistence=0",
            "temporal:alpha=1,delta=100,persistence=8",
            "temporal:persistence=1",
            "temporal:persistence=2",
            "temporal:persistence=4",
            "temporal:alpha=0.73,delta=7,persistence=5",
            "temporal:persistence=6",
            "temporal:persistence=7",
            "depth-to-disparity temporal:alpha=0.5,delta=3,persistence=7",
        ],
    );
}

#[test]
fn chains_equal_librealsense_and_the_filtered_bag_plays_in_it() {
    let chain = "decimation:magnitude=3 depth-to-disparity spatial:alpha=0.6,delta=8 temporal \
                 disparity-to-depth hole-filling:mode=2";
    check_chains(
        20,
        &[
            chain,
            "decimation depth-to-disparity spatial temporal disparity-to-depth hole-filling",
            "threshold:min=0.3,max=3 decimation:magnitude=4 spatial temporal:persistence=2 \
             hole-filling:mode=0",
        ],
    );
    // The filtered recording, played by librealsense without filters:
    // the same frames, with the decimated profile's size and intrinsics.
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = recording(dir.path(), 20);
    let npz = reference(&bag, chain, &dir.path().join("ref.npz"));
    let filtered = dir.path().join("filtered.bag");
    let mut args = vec!["convert", &bag, "--to", "bag"];
    args.extend(filter_args(chain));
    args.extend(["--out", s(&filtered)]);
    ok(&args);
    let played = reference(s(&filtered), "", &dir.path().join("played.npz"));
    let compared = common::python("rs_filters.py", &["compare", &npz, &played]);
    assert!(compared.contains("20 frames equal"), "{compared}");
}

#[test]
fn colorizer_after_the_filters_equals_librealsense_and_its_bag_plays_in_it() {
    let chain = "decimation depth-to-disparity spatial disparity-to-depth \
                 colorizer:color-scheme=2,histogram-equalization=0,min=0.3,max=2.9";
    check_chains(
        10,
        &[
            "colorizer",
            "colorizer:color-scheme=5",
            "colorizer:visual-preset=2",
            "colorizer:max=2,histogram-equalization=1",
            chain,
            // Equalized disparity past 65535 (depth 1 and 2 units here)
            // crashes librealsense (it writes past its histogram): the
            // threshold drops those depths first.
            "threshold depth-to-disparity colorizer",
            "depth-to-disparity colorizer:color-scheme=3,min=0.8,max=4.5",
            "threshold:min=0.5,max=3 temporal colorizer:color-scheme=9",
        ],
    );
    // The colorized recording (an RGB8 depth stream, as librealsense's
    // colorizer labels its frames), played by librealsense: the same
    // pictures.
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = recording(dir.path(), 10);
    let npz = reference(&bag, chain, &dir.path().join("ref.npz"));
    let colorized = dir.path().join("colorized.bag");
    let mut args = vec!["convert", &bag, "--to", "bag"];
    args.extend(filter_args(chain));
    args.extend(["--out", s(&colorized)]);
    ok(&args);
    let played = reference(s(&colorized), "", &dir.path().join("played.npz"));
    let compared = common::python("rs_filters.py", &["compare", &npz, &played]);
    assert!(compared.contains("10 frames equal"), "{compared}");
}

#[test]
fn bad_filters_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = "sample_bags/librealsense-depth-color-lz4.bag";
    let bag = common::root().join(bag);
    let out = dir.path().join("out");
    let cases: [(&[&str], &str); 8] = [
        (
            &["--filter", "spatial:alpha=0.2"],
            "filter spatial: option alpha must be a number from 0.25 to 1",
        ),
        (
            &["--filter", "decimation:magnitude=9"],
            "filter decimation: option magnitude must be a whole number from 1 to 8",
        ),
        (
            &["--filter", "temporal:colour=1"],
            "unknown option \"colour\"",
        ),
        (&["--filter", "median"], "unknown filter \"median\""),
        (
            &["--filter", "colorizer", "--filter", "spatial"],
            "filter colorizer must end the chain (it is followed by spatial)",
        ),
        (
            &["--filter", "colorizer:color-scheme=10"],
            "filter colorizer: option color-scheme must be a whole number from 0 to 9",
        ),
        (
            &["--filter", "colorizer", "--to", "ply"],
            "--filter colorizer makes an RGB picture, which --to ply",
        ),
        (
            &["--filter", "depth-to-disparity"],
            "the filters end in disparity",
        ),
    ];
    for (filters, want) in cases {
        let mut args = vec!["convert", s(&bag), "--out", s(&out)];
        args.extend(filters);
        if !filters.contains(&"--to") {
            args.extend(["--to", "png"]);
        }
        let run = rsbag(&args);
        assert_ne!(run.code, Some(0), "{filters:?} accepted");
        assert!(run.stderr.contains(want), "{filters:?}: {}", run.stderr);
        assert!(!out.exists(), "{filters:?}: output written");
    }
}

#[test]
fn a_session_filters_each_camera_as_librealsense_filters_its_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = recording(dir.path(), 15);
    let other = dir.path().join("other.bag");
    let other = s(&other).to_owned();
    common::python(
        "rs_filters.py",
        &["record", &other, "--frames", "12", "--size", "64x48"],
    );
    let chain = "decimation:magnitude=3 depth-to-disparity spatial:alpha=0.6,delta=8 \
                 temporal:persistence=2 disparity-to-depth hole-filling:mode=2";
    // Each file alone, filtered as librealsense filters it.
    let mut alone = Vec::new();
    for (k, (bag, frames)) in [(&first, 15), (&other, 12)].into_iter().enumerate() {
        let npz = reference(bag, chain, &dir.path().join(format!("ref{k}.npz")));
        let out = dir.path().join(format!("alone{k}"));
        let mut args = vec!["convert", bag, "--to", "raw", "--streams", "depth"];
        args.extend(filter_args(chain));
        args.extend(["--out", s(&out)]);
        ok(&args);
        let compared = common::python("rs_filters.py", &["compare-dir", &npz, s(&out)]);
        assert!(
            compared.contains(&format!("{frames} frames equal")),
            "{compared}"
        );
        alone.push(out);
    }
    // The session's framesets: each picture is its camera's frame as
    // filtered alone, though the session interleaves the cameras.
    let framesets = |out: &Path, chain: &str| {
        let mut args = vec!["convert", "--session", "--to", "png", "--streams", "depth"];
        args.extend(filter_args(chain));
        args.extend(["--out", s(out), &first, &other]);
        // Recorded apart, by two processes' software devices.
        run::ok_not_one_session(&args);
        std::fs::read_to_string(out.join("framesets.csv")).expect("framesets.csv")
    };
    let sets = dir.path().join("sets");
    let index = framesets(&sets, chain);
    // The same sets as without filters: filtering moves no frame in time.
    // (Which frames of the other camera join a set depends on when
    // librealsense's recorder received them: on their bag times.)
    let members = |index: &str| -> Vec<String> {
        let cells = |row: &str| -> Vec<String> { row.split(',').map(str::to_owned).collect() };
        (index.lines().skip(1))
            .map(|row| {
                let c = cells(row);
                [&c[0], &c[4], &c[6], &c[8]].map(String::as_str).join(",")
            })
            .collect()
    };
    let plain = framesets(&dir.path().join("plain"), "");
    assert_eq!(members(&index), members(&plain));
    let mut pictures = [0, 0];
    for row in index.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        let camera = usize::from(cells[4] == other);
        let little = run::depth_png(&sets.join(cells[9]));
        let number: u64 = cells[6].parse().expect("number");
        let raw = alone[camera].join(format!("Depth_{number:06}.raw"));
        assert!(
            little == std::fs::read(&raw).expect("raw"),
            "{row}: not {}",
            raw.display()
        );
        pictures[camera] += 1;
    }
    assert_eq!(
        pictures[0], 15,
        "each of the first camera's frames makes a set"
    );
    assert!(pictures[1] > 0, "the other camera's frames join sets");
    // A filtered ROS 2 session is not written.
    let rig = dir.path().join("rig");
    let mut args = vec!["convert", "--session", "--to", "ros2"];
    args.extend(filter_args("temporal"));
    args.extend(["--out", s(&rig), &first, &other]);
    let refused = rsbag(&args);
    assert_eq!(refused.code, Some(1));
    assert!(refused
        .stderr
        .contains("--filter and --colorize go with --session --to png"));
    assert!(!rig.exists());
}

#[test]
fn the_tours_recording_goes_through_the_disparity_chain_as_in_librealsense() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("session.bag");
    let recorded = rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "0.2",
        "--out",
        s(&bag),
    ]);
    assert_eq!(recorded.code, Some(0), "{}", recorded.stderr);
    let chain = "depth-to-disparity spatial:alpha=0.6,delta=8 disparity-to-depth";
    let convert = |bag: &Path, chain: &str, out: &Path| {
        let mut args = vec!["convert", s(bag), "--to", "raw", "--streams", "depth"];
        args.extend(filter_args(chain));
        args.extend(["--out", s(out)]);
        rsbag(&args)
    };
    // The recorded Stereo Baseline, as librealsense reads it from the
    // recording.
    let npz = reference(s(&bag), chain, &dir.path().join("ref.npz"));
    let out = dir.path().join("recorded");
    let run = convert(&bag, chain, &out);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let compared = common::python("rs_filters.py", &["compare-dir", &npz, s(&out)]);
    assert!(compared.contains("frames equal"), "{compared}");
    // The same baseline given: the same output; another: another.
    let given = |mm: &str, name: &str| {
        let chain = chain.replace("disparity ", &format!("disparity:baseline={mm} "));
        let chain = format!("{chain}:baseline={mm}");
        let out = dir.path().join(name);
        let run = convert(&bag, &chain, &out);
        assert_eq!(run.code, Some(0), "{chain}: {}", run.stderr);
        out
    };
    let raw = |dir: &Path| {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension() == Some("raw".as_ref()))
            .collect();
        files.sort();
        assert!(!files.is_empty());
        files
            .iter()
            .map(|f| std::fs::read(f).expect("read"))
            .collect::<Vec<_>>()
    };
    assert_eq!(raw(&given("50", "given50")), raw(&out));
    assert_ne!(raw(&given("95", "given95")), raw(&out));
    // A recording without one (the synthetic camera's before it recorded
    // it) says how to give one.
    let old = common::sample("rsbag-synthetic-lz4.bag");
    let refused = convert(
        &old,
        "depth-to-disparity disparity-to-depth",
        &dir.path().join("old"),
    );
    assert_eq!(refused.code, Some(1));
    assert!(
        refused
            .stderr
            .contains("depth-to-disparity:baseline=50 (a D435's)"),
        "{}",
        refused.stderr
    );
    let old_out = dir.path().join("old-given");
    let run = convert(
        &old,
        "depth-to-disparity:baseline=50 disparity-to-depth:baseline=50",
        &old_out,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}
