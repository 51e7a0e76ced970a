//! Recording for hours: a recording split into pieces that librealsense
//! plays one by one (2.55 the `.bag` pieces, 2.59 the `.db3` ones) with
//! the frame numbers running on; the ring of the last pieces; a full disk
//! that leaves finished files librealsense plays; the memory of a long
//! recording.

use crate::common;
use crate::run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Small images: the recordings are mostly description and timing.
const SMALL: &str = "64x48@30";

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// The synthetic camera's streams, images of `mode` (WIDTHxHEIGHT@FPS),
/// for `seconds`, with the `extra` arguments; returns stdout (the report).
fn record(out: &Path, seconds: &str, mode: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "record",
        "--synthetic",
        "--duration",
        seconds,
        "--out",
        s(out),
        "--streams",
        "depth,color,infrared1,accel,gyro",
        "--depth",
        mode,
        "--color",
        mode,
    ];
    args.extend_from_slice(extra);
    run::ok(&args)
}

/// The pieces a report names, in order, with whether each was deleted.
fn reported_pieces(report: &str) -> Vec<(PathBuf, bool)> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("wrote "))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let (path, rest) = l.trim().split_once(" (").expect("piece line");
            (PathBuf::from(path), rest.contains("deleted"))
        })
        .collect()
}

/// Frames written and dropped per stream (`Depth 0`, ...) in a report.
fn reported_counts(report: &str) -> BTreeMap<String, (u64, u64)> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("stream "))
        .skip(1)
        .take_while(|l| !l.starts_with("recorded "))
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            let n = fields.len();
            let number = |f: &str| f.parse::<u64>().expect("count");
            (
                fields[..n - 3].join(" "),
                (number(fields[n - 3]), number(fields[n - 2])),
            )
        })
        .collect()
}

/// What librealsense plays from `path` (2.55 a `.bag`, 2.59 a `.db3`),
/// one JSON value per frame.
fn librealsense_plays(path: &Path) -> Vec<Value> {
    let played = match path.extension().and_then(|e| e.to_str()) {
        Some("db3") => common::python259("rs_play.py", &[s(path)]),
        _ => common::python("rs_play.py", &[s(path)]),
    };
    played
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The device librealsense describes from `path`, without the playback's
/// duration (each piece has its own).
fn librealsense_device(path: &Path) -> Value {
    let text = match path.extension().and_then(|e| e.to_str()) {
        Some("db3") => common::python259("rs_play.py", &[s(path), "--device-json"]),
        _ => common::python("rs_play.py", &[s(path), "--device-json"]),
    };
    let mut device: Value = serde_json::from_str(&text).expect("device JSON");
    device
        .as_object_mut()
        .expect("an object")
        .remove("playback");
    device
}

/// A frame as compared: stream, index, frame number, size, hash.
fn frame_key(frame: &Value) -> (String, u64, u64, u64, String) {
    (
        frame["stream"].as_str().expect("stream").to_owned(),
        frame["stream_index"].as_u64().expect("stream_index"),
        frame["frame_number"].as_u64().expect("frame number"),
        frame["size"].as_u64().expect("size"),
        frame["sha256"].as_str().expect("sha256").to_owned(),
    )
}

/// Each piece plays alone in librealsense, exactly the frames rsbag reads
/// from it, the device described in full in each; across the pieces each
/// stream's frame numbers and timestamps run on, no frame lost or
/// repeated at a cut (a frame number skipped only for a frame the report
/// counts dropped). Returns the frames played per piece.
fn check_pieces(pieces: &[PathBuf], report: &str) -> Vec<usize> {
    let first_device = librealsense_device(&pieces[0]);
    let mut runs: BTreeMap<String, Vec<(u64, f64)>> = BTreeMap::new();
    let mut played_per_piece = Vec::new();
    for piece in pieces {
        let played = librealsense_plays(piece);
        assert!(!played.is_empty(), "{} plays no frame", piece.display());
        let ours: Vec<Value> = run::ok(&["frames", "--json", s(piece)])
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        let mut theirs_keys: Vec<_> = played.iter().map(frame_key).collect();
        let mut ours_keys: Vec<_> = ours.iter().map(frame_key).collect();
        theirs_keys.sort();
        ours_keys.sort();
        assert_eq!(
            theirs_keys,
            ours_keys,
            "{}: librealsense plays what rsbag reads",
            piece.display()
        );
        assert_eq!(
            librealsense_device(piece),
            first_device,
            "{}: the device, its sensors, options and streams are described in every piece",
            piece.display()
        );
        played_per_piece.push(played.len());
        // rs_play.py sorts by stream, index, frame number.
        for frame in &played {
            let stream = format!(
                "{} {}",
                frame["stream"].as_str().unwrap(),
                frame["stream_index"]
            );
            runs.entry(stream).or_default().push((
                frame["frame_number"].as_u64().unwrap(),
                frame["timestamp"].as_f64().unwrap(),
            ));
        }
    }
    let counts = reported_counts(report);
    assert_eq!(
        runs.keys().collect::<Vec<_>>(),
        counts.keys().collect::<Vec<_>>(),
        "the streams played are the streams recorded: {report}"
    );
    for (stream, frames) in &runs {
        let (written, dropped) = counts[stream];
        for pair in frames.windows(2) {
            assert!(
                pair[1].0 > pair[0].0 && pair[1].1 > pair[0].1,
                "{stream}: frame numbers and times run on across pieces: {pair:?}"
            );
        }
        let span = frames.last().unwrap().0 - frames[0].0 + 1;
        assert_eq!(frames.len() as u64, written, "{stream}: {report}");
        assert!(
            span <= written + dropped,
            "{stream}: frames #{}..#{} but {written} written, {dropped} dropped: a frame was \
             lost at a cut",
            frames[0].0,
            frames.last().unwrap().0
        );
    }
    played_per_piece
}

#[test]
fn split_pieces_play_alone_in_librealsense_and_run_on() {
    for ext in ["bag", "db3"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join(format!("run.{ext}"));
        // 3.5 s: the last piece is not a few milliseconds long (librealsense
        // 2.55 sometimes stops the playback of so short a file before its
        // frames reach the sensors).
        let report = record(&out, "3.5", SMALL, &["--split-duration", "1"]);
        let pieces: Vec<PathBuf> = reported_pieces(&report)
            .into_iter()
            .map(|(path, deleted)| {
                assert!(!deleted, "{report}");
                path
            })
            .collect();
        assert!(pieces.len() >= 3, ".{ext}: {report}");
        for (i, piece) in pieces.iter().enumerate() {
            assert_eq!(
                piece,
                &dir.path().join(format!("run_{i}.{ext}")),
                "{report}"
            );
        }
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected: Vec<String> = (0..pieces.len())
            .map(|i| format!("run_{i}.{ext}"))
            .collect();
        expected.sort();
        assert_eq!(names, expected, "nothing but the finished pieces");
        let played = check_pieces(&pieces, &report);
        // Pieces of about a second: none holds most of the recording.
        let total: usize = played.iter().sum();
        assert!(
            played[..played.len() - 1]
                .iter()
                .all(|&n| n < total * 2 / 3),
            ".{ext}: frames per piece {played:?}"
        );
    }
}

#[test]
fn split_by_size_keeps_pieces_near_the_size() {
    for ext in ["bag", "db3"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join(format!("run.{ext}"));
        let report = record(
            &out,
            "1",
            "320x240@30",
            &["--split-size", "4", "--no-compression"],
        );
        let pieces: Vec<PathBuf> = reported_pieces(&report).into_iter().map(|p| p.0).collect();
        assert!(pieces.len() >= 2, ".{ext}: {report}");
        for piece in &pieces[..pieces.len() - 1] {
            let size = std::fs::metadata(piece).expect("piece").len();
            // A piece ends before the frame that would take its data past
            // 4 MB (a frame's metadata and headers come on top).
            assert!(
                (3_000_000..4_400_000).contains(&size),
                "{}: {size} bytes",
                piece.display()
            );
        }
        check_pieces(&pieces, &report);
    }
}

#[test]
fn the_ring_keeps_the_last_pieces_and_deletes_only_its_own() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("ring.bag");
    // A file at a piece's name, not written by this recording.
    let stranger = dir.path().join("ring_50.bag");
    std::fs::write(&stranger, b"not a piece of this recording").expect("write");
    let other = dir.path().join("other.bag");
    std::fs::write(&other, b"another file").expect("write");

    // Without --force, existing pieces are refused, and nothing written.
    let refused = run::rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "1",
        "--split-duration",
        "0.5",
        "--out",
        s(&out),
    ]);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("ring_50.bag") && refused.stderr.contains("--force"),
        "{}",
        refused.stderr
    );
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 2);

    let report = record(
        &out,
        "3",
        SMALL,
        &["--split-duration", "0.4", "--max-pieces", "2", "--force"],
    );
    let pieces = reported_pieces(&report);
    assert!(pieces.len() >= 5, "{report}");
    let kept: Vec<PathBuf> = pieces
        .iter()
        .filter(|(_, deleted)| !deleted)
        .map(|(p, _)| p.clone())
        .collect();
    // The last two are kept; every one before them was deleted.
    assert_eq!(
        kept,
        pieces[pieces.len() - 2..]
            .iter()
            .map(|p| p.0.clone())
            .collect::<Vec<_>>(),
        "{report}"
    );
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    let mut expected = kept.clone();
    expected.extend([stranger.clone(), other.clone()]);
    expected.sort();
    assert_eq!(names, expected, "{report}");
    assert_eq!(
        std::fs::read(&stranger).expect("read"),
        b"not a piece of this recording"
    );
    assert_eq!(std::fs::read(&other).expect("read"), b"another file");
    // The pieces kept play in librealsense, one after the other.
    for piece in &kept {
        assert!(!librealsense_plays(piece).is_empty(), "{}", piece.display());
    }
}

#[test]
fn max_pieces_without_a_split_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("r.bag");
    let run = run::rsbag(&[
        "record",
        "--synthetic",
        "--max-pieces",
        "3",
        "--out",
        s(&out),
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("--split-duration"), "{}", run.stderr);
    assert!(!out.exists());
}

/// A recording on a 24 MB tmpfs: the disk fills up, the recording stops
/// with exit 1 saying so, and every file left is finished (no `.partial`),
/// indexed, and played by librealsense with every frame the report counts
/// written. Split by size (pieces of 7 MB), the earlier pieces are whole
/// and the last one holds what the disk had room for (megabytes: not a
/// piece of a few milliseconds, whose playback librealsense 2.55 sometimes
/// stops before its frames reach the sensors).
#[test]
fn a_full_disk_leaves_finished_files_librealsense_plays() {
    for ext in ["bag", "db3"] {
        for split in [false, true] {
            let keep = tempfile::tempdir().expect("tempdir");
            let split_args = if split { "--split-size 7" } else { "" };
            let (text, code) = run::on_small_tmpfs(
                "24m",
                &format!(
                    "\"$R\" record --synthetic --duration 60 --depth 320x240@30 --color 320x240@30 \
                     --no-compression {split_args} \
                     --out \"$M/full.{ext}\" >\"{0}/report\" 2>\"{0}/error\"\n\
                     echo \"exit=$?\"\n\
                     echo \"left=[$(cd \"$M\" && ls -A | tr '\\n' ' ')]\"\n\
                     cp \"$M\"/* \"{0}/\"",
                    s(keep.path())
                ),
            );
            let what = format!(".{ext}, split: {split}");
            assert_eq!(code, Some(0), "{what}: {text}");
            let report = std::fs::read_to_string(keep.path().join("report")).expect("report");
            let error = std::fs::read_to_string(keep.path().join("error")).expect("error");
            assert!(text.contains("exit=1"), "{what}: {text} {error}");
            assert!(
                error.contains("the disk holding") && error.contains("is full"),
                "{what}: says the disk is full: {error}"
            );
            assert!(
                error.contains("is finished and indexed with every frame written"),
                "{what}: {error}"
            );
            assert!(!text.contains(".partial"), "{what}: {text}");
            assert!(!error.contains("reindex"), "{what}: {error}");
            let files: Vec<PathBuf> = if split {
                let pieces: Vec<PathBuf> = reported_pieces(&report)
                    .into_iter()
                    .map(|(p, _)| keep.path().join(p.file_name().expect("name")))
                    .collect();
                assert!(pieces.len() >= 2, "{what}: {report}");
                pieces
            } else {
                vec![keep.path().join(format!("full.{ext}"))]
            };
            let written: u64 = reported_counts(&report).values().map(|c| c.0).sum();
            assert!(written > 0, "{what}: {report}");
            let played: usize = files.iter().map(|f| librealsense_plays(f).len()).sum();
            assert_eq!(
                played as u64, written,
                "{what}: every frame written plays: {report}"
            );
        }
    }
}

/// A 20-second recording, split, stays small in memory: its frames go to
/// the disk as they come, and no more than `--max-cache-size` of them wait
/// for the writer (on a loaded machine the disk falls seconds behind: the
/// default 256 MiB of queue held nearly all 230 MB of this recording).
#[test]
fn a_long_recording_stays_small_in_memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("long.bag");
    let (run, peak) = run::rsbag_peak_mb(&[
        "record",
        "--synthetic",
        "--duration",
        "20",
        "--depth",
        "320x240@30",
        "--color",
        "320x240@30",
        "--split-duration",
        "5",
        "--max-cache-size",
        "50000000",
        "--out",
        s(&out),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(reported_pieces(&run.stdout).len() >= 4, "{}", run.stdout);
    // About 35 MB when the writer keeps up.
    assert!(peak <= 120, "a 20 s recording peaked at {peak} MB");
}

/// `rsbag ARGS` that succeeds; returns stdout and stderr.
fn ok_with_stderr(args: &[&str]) -> (String, String) {
    let run = run::rsbag(args);
    assert_eq!(run.code, Some(0), "rsbag {args:?}: {}", run.stderr);
    (run.stdout, run.stderr)
}

/// The JSON lines of `text`.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The pieces of a 3.5 s synthetic recording split every second, in
/// order.
fn split_recording(out: &Path) -> (Vec<PathBuf>, String) {
    let report = record(out, "3.5", SMALL, &["--split-duration", "1"]);
    let pieces: Vec<PathBuf> = reported_pieces(&report)
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert!(pieces.len() >= 3, "{report}");
    (pieces, report)
}

#[test]
fn pieces_read_back_as_one_recording() {
    for ext in ["bag", "db3"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (pieces, _) = split_recording(&dir.path().join(format!("run.{ext}")));
        let names: Vec<&str> = pieces.iter().map(|p| s(p)).collect();
        // Each piece read alone, one after another.
        let mut each: Vec<Value> = Vec::new();
        for name in &names {
            each.extend(json_lines(&run::ok(&["frames", "--json", name])));
        }
        // Given out of order: the pieces' own frames put them in order.
        let mut reversed = names.clone();
        reversed.reverse();
        let mut args = vec!["frames", "--json"];
        args.extend(&reversed);
        let (joined, note) = ok_with_stderr(&args);
        assert!(
            note.contains(&format!("{} pieces of one recording", pieces.len())),
            ".{ext}: {note}"
        );
        let joined = json_lines(&joined);
        let key = |f: &Value| frame_key(f);
        let mut each_keys: Vec<_> = each.iter().map(key).collect();
        each_keys.sort();
        let joined_keys: Vec<_> = joined.iter().map(key).collect();
        assert_eq!(
            joined_keys, each_keys,
            ".{ext}: the pieces read as one give every frame of every piece once"
        );
        // Each stream's frame numbers run on across the pieces.
        let mut numbers: BTreeMap<(String, u64), Vec<u64>> = BTreeMap::new();
        for (stream, index, number, _, _) in &joined_keys {
            numbers
                .entry((stream.clone(), *index))
                .or_default()
                .push(*number);
        }
        for (stream, numbers) in &numbers {
            assert!(
                numbers.windows(2).all(|w| w[1] == w[0] + 1),
                ".{ext} {stream:?}: consecutive frame numbers {numbers:?}"
            );
        }
        // Each frame's position in its stream counts across the pieces.
        let mut positions: BTreeMap<(String, u64), Vec<u64>> = BTreeMap::new();
        for frame in &joined {
            let (stream, index, ..) = frame_key(frame);
            let position = frame["frame_index"].as_u64().expect("frame_index");
            positions.entry((stream, index)).or_default().push(position);
        }
        for (stream, positions) in &positions {
            assert!(
                positions.iter().copied().eq(0..positions.len() as u64),
                ".{ext} {stream:?}: frame indexes {positions:?}"
            );
        }
        // The directory of the pieces is the same recording; info says it
        // is one recording in pieces, with every stream's frames.
        let info = json_lines(&run::ok(&["info", "--json", s(dir.path())]));
        let summary = &info.last().expect("a summary line")["pieces"];
        assert_eq!(
            summary["pieces"].as_array().map(Vec::len),
            Some(pieces.len()),
            ".{ext}: {summary}"
        );
        assert_eq!(summary["gaps"], serde_json::json!([]), ".{ext}");
        for ((stream, index), numbers) in &numbers {
            let name = match stream.as_str() {
                "Infrared" => format!("Infrared {index}"),
                other => format!("{other} {index}"),
            };
            assert_eq!(
                summary["frames"][&name].as_u64(),
                Some(numbers.len() as u64),
                ".{ext} {name}: {summary}"
            );
        }
        let text = run::ok(&["info", s(dir.path())]);
        assert!(
            text.contains(&format!("one recording in {} pieces", pieces.len())),
            ".{ext}: {text}"
        );
        assert!(!text.contains("not one session"), ".{ext}: {text}");
        // Frame K of a stream, counted across the pieces, is found in the
        // piece that holds it.
        let first_depth = json_lines(&run::ok(&[
            "frames",
            "--json",
            "--streams",
            "Depth",
            names[0],
        ]));
        let k = first_depth.len() + 2;
        let mut args = vec!["frames", "--json", "--streams", "Depth", "--index"];
        let k_text = k.to_string();
        args.push(&k_text);
        args.extend(&names);
        let (found, _) = ok_with_stderr(&args);
        let second = json_lines(&run::ok(&[
            "frames",
            "--json",
            "--streams",
            "Depth",
            names[1],
        ]));
        // The second piece's third frame, at position k of the whole.
        let mut want = second[2].clone();
        want["frame_index"] = serde_json::json!(k);
        assert_eq!(json_lines(&found), vec![want], ".{ext}");
        // check: each piece clean and the cuts with every frame.
        let mut args = vec!["check"];
        args.extend(&names);
        let checked = run::rsbag(&args);
        assert_eq!(
            checked.code,
            Some(0),
            ".{ext}: {}{}",
            checked.stdout,
            checked.stderr
        );
        assert!(
            checked
                .stdout
                .contains("every stream's frame numbers run on"),
            ".{ext}: {}",
            checked.stdout
        );
    }
}

#[test]
fn trim_across_a_cut_writes_one_file_librealsense_plays() {
    for ext in ["bag", "db3"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (pieces, _) = split_recording(&dir.path().join(format!("run.{ext}")));
        let names: Vec<&str> = pieces.iter().map(|p| s(p)).collect();
        // 0.5 s to 1.6 s: across the first cut (at 1 s).
        let range = ["--start", "0.5", "--duration", "1.1"];
        let mut args = vec!["frames", "--json"];
        args.extend(range);
        args.extend(&names);
        let (wanted, _) = ok_with_stderr(&args);
        let mut wanted: Vec<_> = json_lines(&wanted).iter().map(frame_key).collect();
        wanted.sort();
        let first_piece: Vec<_> = json_lines(&run::ok(&["frames", "--json", names[0]]))
            .iter()
            .map(frame_key)
            .collect();
        let from_first = wanted.iter().filter(|f| first_piece.contains(f)).count();
        assert!(
            from_first > 0 && from_first < wanted.len(),
            ".{ext}: the range holds frames of both pieces ({from_first} of {})",
            wanted.len()
        );
        let out = dir.path().join(format!("cut.{ext}"));
        let mut args = vec!["trim", "--out", s(&out)];
        args.extend(range);
        args.extend(&names);
        let (report, _) = ok_with_stderr(&args);
        assert!(
            report.contains(&format!(": {} frames (", wanted.len())),
            ".{ext}: {report}"
        );
        let mut played: Vec<_> = librealsense_plays(&out).iter().map(frame_key).collect();
        played.sort();
        assert_eq!(
            played, wanted,
            ".{ext}: librealsense plays every frame of the range, once"
        );
    }
}

#[test]
fn a_missing_piece_is_a_gap_and_unrelated_recordings_a_session() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (pieces, _) = split_recording(&dir.path().join("run.bag"));
    let (first, third) = (s(&pieces[0]), s(&pieces[2]));
    let run = run::rsbag(&["info", "--json", first, third]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("a gap between"), "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    let summary = &lines.last().expect("summary")["pieces"];
    let gaps = summary["gaps"].as_array().expect("gaps");
    assert!(!gaps.is_empty(), "{summary}");
    for gap in gaps {
        let [last, next] = [0, 1].map(|i| gap["numbers"][i].as_u64().expect("number"));
        assert!(next > last + 1, "{gap}");
        assert!(gap["seconds"].as_f64().expect("seconds") > 0.9, "{gap}");
    }
    let checked = run::rsbag(&["check", first, third]);
    assert_eq!(
        checked.code,
        Some(3),
        "{}{}",
        checked.stdout,
        checked.stderr
    );
    assert!(checked.stdout.contains("GAP"), "{}", checked.stdout);
    // A conversion writes what the pieces hold and says the gap as check does.
    let joined = dir.path().join("joined.bag");
    let converted = run::rsbag(&["convert", "--to", "bag", "--out", s(&joined), first, third]);
    assert_eq!(converted.code, Some(0), "{}", converted.stderr);
    assert!(converted.stdout.contains("GAP: "), "{}", converted.stdout);
    assert!(
        converted.stderr.contains("a gap between"),
        "{}",
        converted.stderr
    );
    // Another recording of the same (synthetic) device: its frame numbers
    // start again, so it is not a piece of the first one.
    let other = dir.path().join("other.bag");
    record(&other, "1", SMALL, &[]);
    let run = run::rsbag(&["info", "--json", first, s(&other)]);
    let last = json_lines(&run.stdout).pop().expect("summary");
    assert!(last.get("session").is_some(), "{last}");
    assert!(last.get("pieces").is_none(), "{last}");
}

/// Every frame librealsense plays from the pieces, one piece after
/// another (2.55 the `.bag` pieces, 2.59 the `.db3` ones), sorted.
fn played_from_pieces(pieces: &[PathBuf]) -> Vec<(String, u64, u64, u64, String)> {
    let mut played: Vec<_> = (pieces.iter())
        .flat_map(|piece| librealsense_plays(piece))
        .map(|f| frame_key(&f))
        .collect();
    played.sort();
    played
}

#[test]
fn convert_of_pieces_writes_one_recording_librealsense_plays() {
    for ext in ["bag", "db3"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let split = dir.path().join("pieces");
        std::fs::create_dir(&split).expect("mkdir");
        let (pieces, _) = split_recording(&split.join(format!("run.{ext}")));
        let wanted = played_from_pieces(&pieces);
        // The .bag pieces as their directory, the .db3 ones as files.
        let input: Vec<&str> = match ext {
            "bag" => vec![s(&split)],
            _ => pieces.iter().map(|p| s(p)).collect(),
        };
        for to in ["bag", "db3"] {
            let out = dir.path().join(format!("joined.{to}"));
            let mut args = vec!["convert", "--to", to, "--out", s(&out)];
            args.extend(&input);
            let (report, _) = ok_with_stderr(&args);
            assert!(
                report.contains(&format!("read {} pieces as one recording", pieces.len())),
                ".{ext} --to {to}: {report}"
            );
            assert!(
                report.contains(&format!(": {} frames (", wanted.len())),
                ".{ext} --to {to}: {report}"
            );
            let mut played: Vec<_> = librealsense_plays(&out).iter().map(frame_key).collect();
            played.sort();
            assert_eq!(
                played, wanted,
                ".{ext} --to {to}: librealsense plays every frame of the pieces, once"
            );
        }
        // Frame files: every image frame of the pieces once, each file
        // the bytes librealsense gives for that frame.
        let out = dir.path().join("raw");
        let mut args = vec!["convert", "--to", "raw", "--out", s(&out)];
        args.extend(&input);
        ok_with_stderr(&args);
        let index = std::fs::read_to_string(out.join("frames.csv")).expect("frames.csv");
        let mut written: Vec<(String, u64, u64, u64, String)> = Vec::new();
        for row in index.lines().skip(1) {
            let fields: Vec<&str> = row.split(',').collect();
            let (stream, index) = match fields[1].rsplit_once(' ') {
                Some((stream, index)) if index.parse::<u64>().is_ok() => {
                    (stream, index.parse().expect("index"))
                }
                _ => (fields[1], 0),
            };
            let bytes = std::fs::read(out.join(fields[0])).expect("a frame file");
            let sha = sha256_hex(&bytes);
            written.push((
                stream.to_owned(),
                index,
                fields[2].parse().expect("frame number"),
                bytes.len() as u64,
                sha,
            ));
        }
        written.sort();
        let images: Vec<_> = (wanted.iter())
            .filter(|f| !matches!(f.0.as_str(), "Accel" | "Gyro"))
            .cloned()
            .collect();
        assert_eq!(written, images, ".{ext} --to raw");
    }
}

/// The SHA-256 of `bytes`, in hex.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn view_shows_the_pieces_as_one_recording_on_one_timeline() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (pieces, _) = split_recording(&dir.path().join("run.bag"));
    let two = &pieces[..2];
    let played: Vec<Vec<Value>> = two.iter().map(|p| librealsense_plays(p)).collect();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command.arg("view").args(two).arg("--no-browser");
    let served = crate::served::Served::run(command);
    assert!(
        served.banner.contains("the 2 pieces of one recording"),
        "{}",
        served.banner
    );
    let page = crate::served::browse("browse.mjs", &served.url, &[]);
    served.stop();
    assert_eq!(page["errors"], serde_json::json!([]), "{page}");
    // Scrubbed to its end, the timeline is past the first piece's frames.
    let first_piece_end = (played[0].iter())
        .map(|f| f["timestamp"].as_f64().expect("timestamp"))
        .fold(f64::MIN, f64::max);
    let first_piece_start = (played[0].iter())
        .map(|f| f["timestamp"].as_f64().expect("timestamp"))
        .fold(f64::MAX, f64::min);
    let end = page["scrub"][1]["time"].as_f64().expect("time");
    assert!(
        end > (first_piece_end - first_piece_start) / 1000.0 + 0.5,
        "the timeline ends at {end} s"
    );
    for (stream, key) in [
        ("Depth", "Depth 0"),
        ("Color", "Color 0"),
        ("Infrared", "Infrared 1"),
    ] {
        let of = |piece: &[Value]| -> Vec<Value> {
            (piece.iter())
                .filter(|f| f["stream"] == stream)
                .cloned()
                .collect()
        };
        let frames = of(&played[0]).len() + of(&played[1]).len();
        // A tick per frame of both pieces on the stream's one lane (the
        // ticks are pixel columns: the two frames either side of the cut
        // can share one on a loaded machine).
        let ticks = page["ticks"][key].as_u64().expect("ticks");
        assert!(
            ticks == frames as u64 || ticks + 1 == frames as u64,
            "{key}: {ticks} ticks for {frames} frames: {}",
            page["ticks"]
        );
        // At the end: the second piece's last frame, counted across the
        // pieces, with the bytes librealsense plays for it.
        let last = of(&played[1]).pop().expect("a frame");
        let shown = &page["last"][key];
        assert_eq!(shown["header"]["number"], last["frame_number"], "{key}");
        assert_eq!(shown["header"]["index"], frames - 1, "{key}");
        let values = base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            shown["values"].as_str().expect("values"),
        )
        .expect("base64");
        assert_eq!(
            sha256_hex(&values),
            last["sha256"].as_str().expect("sha"),
            "{key}"
        );
    }
}

#[test]
fn convert_of_pieces_to_ros2_writes_every_frame_once_as_rosbags_reads_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (pieces, _) = split_recording(&dir.path().join("run.bag"));
    let mut played: Vec<Value> = pieces.iter().flat_map(|p| librealsense_plays(p)).collect();
    played.sort_by_key(|f| f["frame_number"].as_u64());
    let out = dir.path().join("ros2");
    let mut args = vec!["convert", "--to", "ros2", "--out", s(&out)];
    args.extend(pieces.iter().map(|p| s(p)));
    let (report, _) = ok_with_stderr(&args);
    assert!(
        report.contains(&format!("read {} pieces as one recording", pieces.len())),
        "{report}"
    );
    let read: Value =
        serde_json::from_str(&common::python("ros2_read.py", &[s(&out)])).expect("rosbags");
    // The topic's folder (`depth`, `infra1`, ...) of an image or sample.
    let folder = |topic: &Value| -> String {
        let parts: Vec<&str> = topic.as_str().expect("topic").split('/').collect();
        parts[parts.len() - 2].to_owned()
    };
    let of = |stream: &str| -> Vec<&Value> {
        (played.iter()).filter(|f| f["stream"] == stream).collect()
    };
    for (stream, name) in [
        ("Depth", "depth"),
        ("Color", "color"),
        ("Infrared", "infra1"),
    ] {
        let images: Vec<&Value> = (read["images"].as_array().expect("images").iter())
            .filter(|i| folder(&i["topic"]) == name)
            .collect();
        let theirs: Vec<&str> = of(stream)
            .iter()
            .map(|f| f["sha256"].as_str().unwrap())
            .collect();
        let ours: Vec<&str> = images
            .iter()
            .map(|i| i["sha256"].as_str().unwrap())
            .collect();
        assert_eq!(
            ours, theirs,
            "{name}: every frame of the pieces, once, in order"
        );
        let times: Vec<u64> = images
            .iter()
            .map(|i| i["time_ns"].as_u64().unwrap())
            .collect();
        assert!(
            times.windows(2).all(|w| w[1] > w[0]),
            "{name}: bag times run on"
        );
    }
    for (stream, name) in [("Gyro", "gyro"), ("Accel", "accel")] {
        let samples = (read["imu"].as_array().expect("imu").iter())
            .filter(|i| folder(&i["topic"]) == name)
            .count();
        assert_eq!(samples, of(stream).len(), "{name}");
    }
}
