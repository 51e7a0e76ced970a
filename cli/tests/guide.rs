//! The user guide (`docs/src`) says what the tool does: its `console`
//! blocks run, page by page in the order written, and print what the page
//! shows; its command-line reference is the tool's own `--help`.
//!
//! `RSBAG_BLESS=1 cargo test -p rsbag-cli --test cli guide::` rewrites
//! `docs/src/cli-reference.md` from the built tool (after changing a
//! command's options or help).

use crate::run::{shell, OutputInTime};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The guide's pages.
fn pages() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src")
}

/// The built `rsbag`.
fn rsbag() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
    // The help is not wrapped to a terminal; keep it so anyway.
    command.env_remove("COLUMNS");
    command
}

/// One command of a `console` block and the lines it shows as its output.
#[derive(Debug)]
struct Shown {
    command: String,
    output: Vec<String>,
}

/// The commands (`$ ...`) of every `console` block of `page`, in order,
/// each with the lines written under it.
fn console_commands(page: &str) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    let mut in_block = false;
    for line in page.lines() {
        if !in_block {
            in_block = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            shown.push(Shown {
                command: command.to_string(),
                output: Vec::new(),
            });
        } else {
            let last = shown.last_mut().expect("a console block starts with `$ `");
            last.output.push(line.to_string());
        }
    }
    shown
}

/// Whether `got` is what `shown` shows: line for line (trailing spaces
/// aside), a line `...` or `  ...` standing for any number of lines.
fn shows(shown: &[String], got: &[&str]) -> bool {
    match shown.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=got.len()).any(|skip| shows(rest, &got[skip..]))
        }
        Some((first, rest)) => got
            .split_first()
            .is_some_and(|(line, more)| line.trim_end() == first.trim_end() && shows(rest, more)),
    }
}

#[test]
fn the_guide_console_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut pages_run = 0;
    let mut names: Vec<_> = std::fs::read_dir(pages())
        .expect("docs/src")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    names.sort();
    for page in names {
        let commands = console_commands(&std::fs::read_to_string(&page).expect("page"));
        if commands.is_empty() {
            continue;
        }
        pages_run += 1;
        // Each page in a directory of its own, beside the sample recordings.
        let dir = tempfile::tempdir().expect("tempdir");
        std::os::unix::fs::symlink(root.join("sample_bags"), dir.path().join("sample_bags"))
            .expect("link the samples");
        for shown in commands {
            let out = shell(dir.path(), &shown.command)
                .output_in_time()
                .expect("run");
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let got: Vec<&str> = text.lines().collect();
            assert!(
                shows(&shown.output, &got),
                "{}: `{}` printed\n{text}\nbut the page shows\n{}",
                page.display(),
                shown.command,
                shown.output.join("\n")
            );
        }
    }
    assert!(pages_run >= 3, "the guide's console blocks were not found");
}

/// `docs/src/cli-reference.md` as the built tool's help makes it.
fn cli_reference() -> String {
    let help = |args: &[&str]| {
        let out = rsbag()
            .args(args)
            .arg("--help")
            .output_in_time()
            .expect("help");
        assert!(out.status.success(), "rsbag {args:?} --help");
        String::from_utf8(out.stdout).expect("UTF-8 help")
    };
    let main = help(&[]);
    let mut page = String::from(
        "# Command-line reference\n\n\
         <!-- Generated from the tool's `--help` by cli/tests/guide.rs, which\n\
         checks it: after changing a command, run\n\
         `RSBAG_BLESS=1 cargo test -p rsbag-cli --test cli guide::`. -->\n\n\
         Every command's `--help`, as the tool prints it. The\n\
         [tour](command-line.md) shows them at work.\n",
    );
    page.push_str(&format!("\n## rsbag\n\n```text\n{}```\n", main));
    let commands = main
        .split("Commands:\n")
        .nth(1)
        .expect("a command list")
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help");
    for command in commands {
        page.push_str(&format!(
            "\n## rsbag {command}\n\n```text\n{}```\n",
            help(&[command])
        ));
    }
    page
}

#[test]
fn the_cli_reference_is_the_tools_help() {
    let path = pages().join("cli-reference.md");
    let expected = cli_reference();
    if std::env::var_os("RSBAG_BLESS").is_some() {
        std::fs::write(&path, &expected).expect("write cli-reference.md");
        return;
    }
    let page = std::fs::read_to_string(&path).expect("docs/src/cli-reference.md");
    assert!(
        page == expected,
        "docs/src/cli-reference.md differs from the tool's --help: run \
         `RSBAG_BLESS=1 cargo test -p rsbag-cli --test cli guide::` and review the diff"
    );
}
