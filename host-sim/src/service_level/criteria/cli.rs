//! `host-sim criteria`: its options, and from a sweep's directory to the ranking,
//! `criteria.csv` and the figures.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::error::CliError;
use crate::path_error::PathError;
use crate::service_level::cli::parse_machine_counts;

#[derive(Debug, Args)]
pub struct CriteriaArgs {
    /// The directory `host-sim sweep --out` wrote (its sweep.csv is read).
    #[arg(value_name = "SWEEP_DIR")]
    pub sweep_dir: PathBuf,
    /// Machine counts analysed (the best of each metric is taken over them); `all` for
    /// every count in the sweep.
    #[arg(long, value_name = "LIST", default_value = "1,2,4", allow_hyphen_values = true, value_parser = counts_or_all)]
    pub machine_counts: Counts,
    /// Write criteria.csv and the figures here instead of SWEEP_DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub plots: crate::plot::PlotArgs,
}

/// `--machine-counts` of `criteria`: the counts (none for `all`), and the text as
/// typed, which a message quotes.
#[derive(Clone, Debug)]
pub struct Counts {
    pub counts: Vec<u16>,
    pub text: String,
}

fn counts_or_all(text: &str) -> Result<Counts, crate::units::Refused> {
    let counts = match text.trim() {
        "all" => Vec::new(),
        list => parse_machine_counts(list)?.0,
    };
    Ok(Counts { counts, text: text.to_owned() })
}

/// `host-sim criteria`.
pub fn criteria(args: &CriteriaArgs) -> Result<(), CliError> {
    let counts = &args.machine_counts.counts;
    let configs = super::read_sweep(&args.sweep_dir)?;
    let analyses = super::analyse(&configs, counts);
    if analyses.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no configuration on machine counts {} (--machine-counts; `all` for every count of the sweep)",
            args.sweep_dir.join("sweep.csv").display(),
            replay::echo::echo(&args.machine_counts.text)
        )));
    }
    note_absent(&configs, counts);
    crate::output::stdout()
        .write_all(super::report(&analyses).as_bytes())
        .map_err(|source| CliError::Io(PathError::stdout(source)))?;
    let out = args.out.as_deref().unwrap_or(&args.sweep_dir);
    std::fs::create_dir_all(out)
        .map_err(|source| CliError::Io(PathError { path: out.display().to_string(), source }))?;
    super::write_csv(&out.join("criteria.csv"), &analyses)?;
    if args.plots.enabled() {
        let figures = super::figures::write(out, &analyses)?;
        eprintln!("host-sim: wrote criteria.csv and {} figures to {}", figures.len(), out.display());
    }
    Ok(())
}

/// Says on standard error which of the `--machine-counts` asked for the sweep has no
/// row on, so that an analysis over fewer counts than asked is not silent.
fn note_absent(configs: &[super::Config], counts: &[u16]) {
    let absent: Vec<String> =
        counts.iter().filter(|&&m| !configs.iter().any(|c| c.machines == m)).map(u16::to_string).collect();
    if !absent.is_empty() {
        eprintln!(
            "host-sim: --machine-counts: the sweep has no row on {} machines; the analysis is over the others",
            absent.join(", ")
        );
    }
}
