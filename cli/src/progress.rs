//! Progress bars for long operations: drawn on stderr when it is a
//! terminal, hidden otherwise so that piped and logged output stays clean.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting `total` items of `what` (e.g. `frames`), or a hidden
/// one when stderr is not a terminal. Clear it with `finish_and_clear`
/// before printing the result.
pub fn bar(total: u64, what: &'static str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] [{bar:40}] {human_pos}/{human_len} {msg} ({eta} left)",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    ProgressBar::new(total).with_style(style).with_message(what)
}
