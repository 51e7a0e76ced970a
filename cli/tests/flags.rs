//! One vocabulary of flags: every subcommand's `--help` is read, and the
//! flags that mean the same thing are spelled the same everywhere.

use crate::run;

use std::collections::BTreeMap;

/// Every subcommand and the long flags its `--help` lists.
fn flags() -> BTreeMap<String, Vec<String>> {
    let top = run::ok(&["--help"]);
    let commands: Vec<String> = top
        .split("Commands:")
        .nth(1)
        .expect("a command list")
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 10, "{commands:?}");
    commands
        .into_iter()
        .map(|command| {
            let help = run::ok(&[&command, "--help"]);
            let long: Vec<String> = help
                .lines()
                .filter_map(|l| {
                    let l = l.trim_start();
                    // `-v, --verbose`: the long form after the short one.
                    let l = match l.as_bytes() {
                        [b'-', c, b',', b' ', ..] if c.is_ascii_alphabetic() => &l[4..],
                        _ => l,
                    };
                    l.strip_prefix("--")
                        .map(|f| f.split([' ', '<', '=']).next().unwrap_or("").to_owned())
                })
                .filter(|f| !f.is_empty())
                .collect();
            (command, long)
        })
        .collect()
}

#[test]
fn flags_that_mean_the_same_are_spelled_alike() {
    let all = flags();
    let has = |command: &str, flag: &str| all[command].iter().any(|f| f == flag);
    // Words that have one spelling: a command that offers the meaning
    // uses it, and no other spelling appears anywhere.
    let synonyms: &[(&str, &[&str])] = &[
        ("streams", &["stream", "stream-names", "only"]),
        ("start", &["from", "begin", "skip"]),
        ("duration", &["end", "to-time", "length", "until"]),
        ("out", &["output", "dest", "destination"]),
        ("force", &["overwrite", "replace", "yes"]),
        ("json", &["as-json", "format-json"]),
    ];
    for (command, flags) in &all {
        for (word, others) in synonyms {
            for other in *others {
                assert!(
                    !flags.iter().any(|f| f == other),
                    "{command} spells --{word} as --{other}"
                );
            }
        }
    }
    // Commands that read frames choose them by stream and by time alike.
    for command in ["frames", "play", "convert", "trim"] {
        for flag in ["streams", "start", "duration"] {
            assert!(has(command, flag), "{command} has no --{flag}");
        }
    }
    // Every command that writes a file names it --out and replaces it
    // only with --force.
    for command in [
        "record",
        "convert",
        "trim",
        "compress",
        "decompress",
        "reindex",
    ] {
        assert!(has(command, "out") && has(command, "force"), "{command}");
    }
    assert!(has("view", "export") && has("view", "force"));
}

#[test]
fn stream_names_and_targets_are_case_insensitive_and_stream_is_an_alias() {
    let sample = format!(
        "{}/../sample_bags/rsbag-synthetic-lz4.bag",
        env!("CARGO_MANIFEST_DIR")
    );
    let by = |flag: &str, names: &str| run::ok(&["frames", &sample, flag, names, "--index", "0"]);
    let expected = by("--streams", "Depth");
    assert_eq!(by("--streams", "depth"), expected);
    assert_eq!(by("--stream", "DEPTH"), expected);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("png");
    run::ok(&[
        "convert",
        &sample,
        "--to",
        "PNG",
        "--streams",
        "depth",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(std::fs::read_dir(&out).expect("written").count() > 0);
}

#[test]
fn an_existing_export_names_the_flags_view_has() {
    let sample = format!(
        "{}/../sample_bags/librealsense-depth-color-lz4.bag",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("report.html");
    let report = report.to_str().expect("utf-8");
    run::ok(&["view", &sample, "--export", report]);
    let again = run::rsbag(&["view", &sample, "--export", report]);
    assert_eq!(again.code, Some(1));
    assert!(again.stderr.contains("--force"), "{}", again.stderr);
    assert!(!again.stderr.contains("--out"), "{}", again.stderr);
}

#[test]
fn info_help_names_every_key_of_its_json() {
    let help = run::ok(&["info", "--help"]);
    let sample = format!(
        "{}/../sample_bags/librealsense-depth-color-lz4.bag",
        env!("CARGO_MANIFEST_DIR")
    );
    let json: serde_json::Value =
        serde_json::from_str(&run::ok(&["info", "--json", &sample])).expect("json");
    let mut keys: Vec<String> = json.as_object().expect("object").keys().cloned().collect();
    keys.extend(
        json["realsense"]
            .as_object()
            .expect("realsense")
            .keys()
            .cloned(),
    );
    keys.extend(
        json["realsense"]["streams"][0]
            .as_object()
            .expect("stream")
            .keys()
            .cloned(),
    );
    for key in keys {
        assert!(
            help.contains(&format!("`{key}`")),
            "info --help does not name `{key}`"
        );
    }
}
