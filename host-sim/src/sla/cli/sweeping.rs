//! `host-sim sla-sweep`: its options and its run, whole, one shard of it (which writes
//! only its part), or the shards' parts joined ([`crate::shard`]).

use std::path::PathBuf;

use clap::Args;

use super::super::generator::SLOT_TICKS;
use super::super::{SlaError, sweep};
use super::values::{self, Duration};
use super::{DEFAULT_STEP, sets, write_stdout};
use crate::progress;
use replay::echo::echo;

/// `host-sim sla-sweep`.
#[derive(Debug, Args)]
#[command(after_help = "Example:\n  host-sim sla-sweep --sets 100 --seed 1 --out out/sla-sweep")]
pub struct SweepArgs {
    /// Directory for sla_points.csv, sla_table1.csv, sla_table2.csv,
    /// sla_families.csv, sla_fig*.csv, sla.json and the SVG figures.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Generated job sets per heuristic (the paper's 100).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = sets)]
    pub sets: u64,
    /// Seeds the sets and the random order.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::units::seed)]
    pub seed: u64,
    /// Δt, the step between tried starts (s, m, h, d): a multiple of six minutes.
    #[arg(long, value_name = "DURATION", default_value = DEFAULT_STEP, allow_hyphen_values = true,
          value_parser = values::duration)]
    pub step: Duration,
    #[command(flatten)]
    pub plots: crate::plot::PlotArgs,
    #[command(flatten)]
    pub shard: crate::shard::ShardArgs,
}

/// `host-sim sla-sweep`: the files, figures, tables and findings of the whole sweep;
/// nothing but its part from a shard.
pub fn run_sweep(args: &SweepArgs) -> Result<(), SlaError> {
    let step = args.step.ticks;
    if !step.is_multiple_of(SLOT_TICKS) {
        return Err(SlaError::Usage(format!(
            "--step: {} ({step} s) is not a multiple of the six-minute slot",
            echo(&args.step.text)
        )));
    }
    let config = sweep::SweepConfig { sets: args.sets, seed: args.seed, step_ticks: step };
    let bar = progress::bar(0, "runs");
    let started = std::time::Instant::now();
    let result = sweep::shard::run(&config, &args.shard, &args.out, &bar);
    bar.finish_and_clear();
    let Some(result) = result? else { return Ok(()) };
    let elapsed = started.elapsed();
    let files = sweep::files::write(&args.out, &result)?;
    eprintln!("host-sim: wrote {} files to {}", files.len(), args.out.display());
    args.plots
        .write_figures(&args.out, || super::super::figures::write(&args.out, &result))
        .map_err(|e| SlaError::Usage(e.to_string()))?;
    let s = &result.set_stats;
    let mut text = format!(
        "sla-sweep: {} points x {} sets (seed {}) in {:.1} s; sets: {:.1} jobs, mean tD {:.2} h, mean NCPU {:.1} (mode {})\n\n",
        result.points.len(),
        result.sets,
        result.seed,
        elapsed.as_secs_f64(),
        s.jobs,
        s.mean_td_hours,
        s.mean_ncpu,
        s.mode_ncpu
    );
    text.push_str(&sweep::tables::table1_text(&sweep::tables::table1(&result)));
    text.push('\n');
    text.push_str(&sweep::tables::table2_text(&sweep::tables::table2(&result), s));
    text.push_str("\nThe paper's findings here:\n");
    for f in sweep::findings::findings(&result) {
        text.push_str(&f.line());
    }
    write_stdout(&text)
}
