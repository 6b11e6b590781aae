//! The model registry: every model has its place in every layer, named alike. Two
//! tables, so that a new layer or model is one line: [`LAYERS`], the layers where a
//! model has a folder or file of its own, and [`MENTIONS`], the layers where a model is
//! a line in a file the models share (a run, a call, a test).

use super::report::Finding;

/// The models, as `(name, host-sim subcommand)`: the name every layer uses for the
/// model, and the subcommand that runs it; xtask's own table ([`crate::models`]).
pub(super) fn models() -> Vec<(&'static str, &'static str)> {
    crate::models::names()
}

/// Each layer's place for a model, `{m}` standing for the model's name; a template
/// ending in `/` is a folder, any other a file.
pub(super) const LAYERS: &[&str] = &[
    "kernel/src/{m}/",
    "host-sim/src/{m}/",
    "host-sim/src/{m}/whatif.rs",
    "host-sim/benches/{m}.rs",
    "replay/src/engine/{m}.rs",
    "replay/src/verify/{m}.rs",
    "replay/src/model/{m}/",
    "replay/src/format/codec/{m}.rs",
    "replay/src/export/{m}.rs",
    "replay/src/jobs/{m}.rs",
    "replay/src/gantt/{m}.rs",
    "replay/src/diff/{m}.rs",
    "snapshots/src/{m}.rs",
    "fuzz/fuzz_targets/{m}.rs",
    "docs/models/{m}.md",
];

/// A layer that is a line in a shared file: `(layer, file, needle, what to add)`. The
/// file must contain the needle for every model; in the needle and in what to add,
/// `{m}` stands for the model's name and `{s}` for its subcommand.
pub(super) type Mention = (&'static str, &'static str, &'static str, &'static str);

/// The layers a model reaches through a shared file. Each needle is the shape a row or
/// call has there, so that another mention of the name (a comment, the fuzz targets'
/// list) does not stand in for it.
pub(super) const MENTIONS: &[Mention] = &[
    (
        "replay's list of models",
        "replay/src/contract.rs",
        " {m}: ",
        "a row `{m}: Marker [Event Decision] \"doc\",` to for_each_model!",
    ),
    (
        "host-sim's list of models",
        "host-sim/src/lib.rs",
        "\"{m}\": ",
        "a row `\"{m}\": Marker({m}),` to for_each_model!",
    ),
    (
        "the panic-free probe",
        "xtask/footprint/src/main.rs",
        "kernel::{m}",
        "a call that reaches `kernel::{m}` from `link_check`, and \"{m}\" in COVERED",
    ),
];

/// Every `(model, path)` the registry requires, models first.
pub(super) fn required() -> impl Iterator<Item = (&'static str, String)> {
    models().into_iter().flat_map(|(m, _)| LAYERS.iter().map(move |layer| (m, layer.replace("{m}", m))))
}

/// A finding for every model that a shared file of `mentions` does not mention, or
/// for the file itself when `text_of` cannot find it. A finding names the file as its
/// path and the model as its function, so that an exception can excuse one model.
pub(super) fn unmentioned<'a>(
    models: &[(&str, &str)],
    mentions: &[Mention],
    text_of: impl Fn(&str) -> Option<&'a str>,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for &(layer, file, needle, add) in mentions {
        let Some(text) = text_of(file) else {
            let message =
                format!("{layer} is checked in {file}, which is missing (see xtask/src/tidy/registry.rs)");
            findings.push(Finding { path: file.to_owned(), line: 0, function: String::new(), message });
            continue;
        };
        for &(model, subcommand) in models {
            let fill = |template: &str| template.replace("{m}", model).replace("{s}", subcommand);
            if !text.contains(&fill(needle)) {
                let message = format!(
                    "the model `{model}` is missing from {layer}: add {} (see xtask/src/tidy/registry.rs)",
                    fill(add)
                );
                findings.push(Finding {
                    path: file.to_owned(),
                    line: 0,
                    function: model.to_owned(),
                    message,
                });
            }
        }
    }
    findings
}
