//! The files a subcommand reads and writes, as its options name them: each model's
//! [`crate::model::HostModel::files`] lists its subcommands' files, and `main` checks
//! them all before anything is read (`main/files.rs`: an output that is an input or
//! another output is refused, and so is a trace given twice).

use std::path::{Path, PathBuf};

use crate::input::TraceArgs;
use crate::plot::PlotArgs;

/// A path and the option that gave it.
pub type Owned = (&'static str, PathBuf);

/// The files of one command line.
#[derive(Debug, Default)]
pub struct Files {
    pub inputs: Vec<Owned>,
    pub traces: Vec<Owned>,
    pub outputs: Vec<Owned>,
    pub folders: Vec<Owned>,
    /// The output folders that get figures (`*.svg`, named by what the run finds).
    pub figures: Vec<Owned>,
}

impl Files {
    pub fn input(mut self, option: &'static str, path: Option<&Path>) -> Self {
        self.inputs.extend(path.map(|p| (option, p.to_owned())));
        self
    }

    pub fn traces(mut self, source: &TraceArgs) -> Self {
        self.traces.extend(source.trace.iter().map(|p| ("--trace", p.clone())));
        self
    }

    pub fn output(mut self, option: &'static str, path: Option<&Path>) -> Self {
        self.outputs.extend(path.map(|p| (option, p.to_owned())));
        self
    }

    /// An output folder and the files written in it.
    pub fn folder(mut self, option: &'static str, dir: Option<&Path>, names: &[&str]) -> Self {
        if let Some(dir) = dir {
            self.outputs.extend(names.iter().map(|name| (option, dir.join(name))));
            self.folders.push((option, dir.to_owned()));
        }
        self
    }

    /// An output folder that gets figures too, when `plots` are on.
    pub fn figures(
        mut self,
        option: &'static str,
        dir: Option<&Path>,
        names: &[&str],
        plots: PlotArgs,
    ) -> Self {
        if let Some(dir) = dir.filter(|_| plots.enabled()) {
            self.figures.push((option, dir.to_owned()));
        }
        self.folder(option, dir, names)
    }
}
