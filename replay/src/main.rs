//! `replay`: re-verify, export and show decision logs.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use replay::export::ExportError;
use replay::format::LogReader;
use replay::verify::{Report, verify};

#[derive(Debug, Parser)]
#[command(version, about = "Re-verify, export and show admission decision logs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Rebuild the kernel from the header, feed it the logged events and compare every
    /// decision; then check deadlines and work without the kernel.
    Verify { log: PathBuf },
    /// Write the log as one JSON object per line, the header first.
    Export {
        log: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Jsonl)]
        format: Format,
        /// Write here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print the header and every record readably.
    Show { log: PathBuf },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Jsonl,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify { log } => run_verify(&log),
        Command::Export { log, format: Format::Jsonl, out } => run_export(&log, out.as_deref()),
        Command::Show { log } => run_show(&log),
    }
}

fn run_verify(log: &Path) -> ExitCode {
    let reader = match LogReader::open(log) {
        Ok(reader) => reader,
        Err(e) => return fail(log, &e),
    };
    match verify(reader) {
        Ok(r @ Report { tiers: Some(c), .. }) => {
            let [min, q1, median, q3, max] = c.bronze_wait;
            let summary = format!(
                "{}: verified {} records ({} events, {} decisions): {} accepted, {} rejected, {} ended, {} moved, \
                 {} re-placed, {} lost; violated: {} Gold, {} Silver; {} Bronze dropped; Bronze wait s: min {min} \
                 q1 {q1} median {median} q3 {q3} max {max}\nevery decision re-made by the tiers kernel; every \
                 placement and move inside its window and on a resource its tier allows, no resource over its \
                 nodes, every violation recomputed from the records\n",
                log.display(),
                r.records,
                r.events,
                r.decisions,
                r.accepted,
                r.rejected,
                r.completed,
                c.moves,
                c.replaced,
                c.lost,
                c.violated_gold,
                c.violated_silver,
                c.bronze_dropped,
            );
            print!("{summary}");
            ExitCode::SUCCESS
        }
        Ok(r @ Report { reservations: Some(c), .. }) => {
            let summary = format!(
                "{}: verified {} records ({} events, {} decisions): {} accepted, {} rejected, {} offers, \
                 {} replans, {} fixes, {} started, {} ended ({} early, {} cut)\nevery decision re-made by the \
                 reservation kernel; every executed reservation lay inside its window, and no instant had more \
                 nodes in use than the pool\n",
                log.display(),
                r.records,
                r.events,
                r.decisions,
                r.accepted,
                r.rejected,
                c.offers,
                c.replans,
                c.fixes,
                c.starts,
                r.completed,
                c.early,
                c.cut
            );
            write_summary(&summary)
        }
        Ok(r) => {
            let summary = format!(
                "{}: verified {} records ({} events, {} decisions): {} accepted, {} rejected, {} completed, \
                 {} interruptions\nevery decision re-made by the kernel; every accepted job ran for exactly its \
                 processing time and met its deadline\n",
                log.display(),
                r.records,
                r.events,
                r.decisions,
                r.accepted,
                r.rejected,
                r.completed,
                r.preemptions
            );
            write_summary(&summary)
        }
        Err(e) => fail(log, &e),
    }
}

fn write_summary(summary: &str) -> ExitCode {
    // `println!` would panic on a closed pipe (`| head`); a gone reader is no error.
    let written = io::stdout().lock().write_all(summary.as_bytes());
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(Path::new("standard output"), &e),
        _ => ExitCode::SUCCESS,
    }
}

fn run_export(log: &Path, out: Option<&Path>) -> ExitCode {
    let reader = match LogReader::open(log) {
        Ok(reader) => reader,
        Err(e) => return fail(log, &e),
    };
    let sink: Box<dyn Write> = match out {
        Some(path) => match File::create(path) {
            Ok(file) => Box::new(file),
            Err(e) => return fail(path, &e),
        },
        None => Box::new(io::stdout().lock()),
    };
    let mut sink = BufWriter::new(sink);
    let result = replay::export::jsonl(reader, &mut sink);
    let flushed = sink.flush();
    finish_output(log, out.unwrap_or(Path::new("standard output")), result, flushed)
}

fn run_show(log: &Path) -> ExitCode {
    let reader = match LogReader::open(log) {
        Ok(reader) => reader,
        Err(e) => return fail(log, &e),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let result = replay::export::show(reader, &mut out);
    let flushed = out.flush();
    finish_output(log, Path::new("standard output"), result, flushed)
}

/// The exit of a listing: a reader that went away (`| head`) is not an error.
fn finish_output(
    log: &Path,
    out: &Path,
    result: Result<u64, ExportError>,
    flushed: io::Result<()>,
) -> ExitCode {
    let closed = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    match (result, flushed) {
        (Ok(_), Ok(())) => ExitCode::SUCCESS,
        (Err(ExportError::Output(e)), _) | (Ok(_), Err(e)) if closed(&e) => ExitCode::SUCCESS,
        (Err(e), _) => fail(log, &e),
        (Ok(_), Err(e)) => fail(out, &e),
    }
}

fn fail(path: &Path, error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {}: {error}", path.display());
    ExitCode::FAILURE
}
