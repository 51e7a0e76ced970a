//! The library's layers, lowest first, as `src/lib.rs` states them: each
//! module of `src/` may use only modules of lower layers. Read from the
//! code's `crate::` paths (comments aside), so that the layering cannot
//! drift from what the code does.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Each layer's modules, lowest first.
const LAYERS: &[&[&str]] = &[
    &["error", "time", "slots", "parallel"],
    &["storage"],
    &["msg", "device"],
    &["realsense"],
    &["ros_camera"],
    &["processing"],
    &["recording"],
    &["playback", "record"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut breaches = Vec::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).unwrap();
        let module = top_module(relative);
        if module == "lib" {
            continue;
        }
        let Some(layer) = layer_of(&module) else {
            breaches.push(format!(
                "{}: module `{module}` is in no layer",
                relative.display()
            ));
            continue;
        };
        let code = without_comments(&fs::read_to_string(&file).unwrap());
        for used in crate_modules_used(&code) {
            let Some(used_layer) = layer_of(&used) else {
                continue; // an item of the crate root (`crate::Error`)
            };
            if used != module && used_layer >= layer {
                breaches.push(format!("{}: `{module}` uses `{used}`", relative.display()));
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "layering broken:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn the_reader_sees_grouped_and_nested_paths() {
    let code = "use crate::{storage::bag, Error};\nfn f() { crate::msg::ros2::x(); }";
    assert_eq!(
        crate_modules_used(code),
        BTreeSet::from(["Error".to_owned(), "msg".to_owned(), "storage".to_owned()])
    );
    assert_eq!(
        without_comments("a // crate::x\n/// crate::y\nb"),
        "a \n\nb"
    );
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// `storage/bag/reader.rs` → `storage`, `time.rs` → `time`.
fn top_module(relative: &Path) -> String {
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_owned()
}

/// The code with `//` comments (doc comments too) taken out, line by line.
/// A `//` inside a string literal cuts the rest of its line, which can
/// only hide a path, never invent one.
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment after each `crate::`: `crate::storage::bag` gives
/// `storage`, `crate::{msg, device::Frame}` gives `msg` and `device`.
fn crate_modules_used(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => used.extend(group_heads(group)),
            None => used.extend(identifier(rest)),
        }
    }
    used
}

/// The first segment of each path in a `{…}` group, up to its closing brace.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            c if at_start && !c.is_whitespace() => {
                heads.extend(identifier(&group[i..]));
                at_start = false;
            }
            _ => {}
        }
    }
    heads
}

fn identifier(text: &str) -> Option<String> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    (end > 0).then(|| text[..end].to_owned())
}
