//! Progress on long work: a bar on standard error when it is a terminal, nothing
//! otherwise (so piped and captured output stays clean). Every subcommand that runs
//! for a while (runs, sweeps of every model) uses this one bar.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `length` steps counted in `unit` (`jobs`, `runs`); hidden when standard
/// error is not a terminal. A length of 0 may be set later with `set_length`.
pub fn bar(length: u64, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    let template =
        format!("{{spinner}} [{{elapsed_precise}}] {{bar:40}} {{pos}}/{{len}} {unit} (eta {{eta}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
