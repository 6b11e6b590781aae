//! The model registry: every model has its folder or file in every layer, named
//! alike. A table of path templates, so that a new layer or model is one line.

/// The models, by the name every layer uses for them.
pub(super) const MODELS: &[&str] = &["service_level", "reservation", "tiers", "sla"];

/// Each layer's place for a model, `{m}` standing for the model's name; a template
/// ending in `/` is a folder, any other a file.
pub(super) const LAYERS: &[&str] = &[
    "kernel/src/{m}/",
    "host-sim/src/{m}/",
    "replay/src/engine/{m}.rs",
    "replay/src/verify/{m}.rs",
    "replay/src/model/{m}/",
    "replay/src/format/codec/{m}.rs",
    "replay/src/gantt/{m}.rs",
    "snapshots/src/{m}.rs",
    "fuzz/fuzz_targets/{m}.rs",
];

/// Every `(model, path)` the registry requires, models first.
pub(super) fn required() -> impl Iterator<Item = (&'static str, String)> {
    MODELS.iter().flat_map(|m| LAYERS.iter().map(move |layer| (*m, layer.replace("{m}", m))))
}
