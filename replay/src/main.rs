//! `replay`: re-verify, export, show and draw decision logs.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use replay::export::ExportError;
use replay::format::LogReader;
use replay::staged::{self, StageError};
use replay::trust::vouch_file;
use replay::verify::verify;

mod import_cli;

#[derive(Debug, Parser)]
#[command(version, about = "Re-verify, export and show admission decision logs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Rebuild the kernel from the header, feed it the logged events and compare every
    /// decision; then check deadlines and work without the kernel. LOG may also be a
    /// device's record stream (docs/stream-format.md), read as `import` reads it.
    Verify {
        /// The decision log to verify, or a device's record stream.
        #[arg(value_name = "LOG")]
        log: PathBuf,
    },
    /// Make a device's record stream (docs/stream-format.md) into a decision log. Every
    /// damaged or missing stretch is reported by its byte offset; a stream with any
    /// such loss is not imported (exit 1), since a log cannot hold a hole.
    #[command(after_help = "Example: replay import service-level.stream --out service-level.log")]
    Import {
        /// The device's record stream to read (never written to).
        #[arg(value_name = "STREAM")]
        stream: PathBuf,
        /// The log to write (through LOG.tmp, renamed once whole; never the stream itself).
        #[arg(long, value_name = "LOG")]
        out: PathBuf,
    },
    /// Write the log as one JSON object per line, the header first (`--format jsonl`),
    /// or as tables of any model (docs/records.md): one CSV row per job (`--format
    /// csv`, the same rows as `host-sim run --jobs-out`), one per piece of work
    /// (`--format segments`), or Batsim's jobs.csv, which evalys loads (`--format batsim`).
    #[command(after_help = "Example: replay export out/kth.log --format csv --out out/kth-jobs.csv")]
    Export {
        /// The decision log to export.
        #[arg(value_name = "LOG")]
        log: PathBuf,
        /// `jsonl` (one JSON object per line, the header first), `csv` (one row per
        /// job), `segments` (one row per piece of work) or `batsim` (Batsim's jobs.csv).
        #[arg(long, value_name = "NAME", value_enum, default_value_t = Format::Jsonl)]
        format: Format,
        /// Write here (through FILE.tmp, renamed once whole); without it, standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Print the header and every record readably.
    Show {
        /// The decision log to print.
        #[arg(value_name = "LOG")]
        log: PathBuf,
    },
    /// Compare two logs of the same input content (a policy change, a kernel change):
    /// the header lines that differ, the first record where they diverge, every job
    /// whose fate changed and how, and both logs' counts side by side. Exit status 0
    /// when the records are the same (the headers may differ), 1 when they differ, 2
    /// on an error or when the logs are not of the same model and inputs.
    #[command(after_help = "Example: replay diff out/kth-first-fit.log out/kth-best-fit.log --limit 20")]
    Diff(DiffArgs),
    /// Draw the schedule as an SVG Gantt chart: machines (or the reservation pool's
    /// nodes, or the tiers resources' nodes) over time, runs coloured by outcome,
    /// submits and rejections marked.
    Gantt(GanttArgs),
}

#[derive(Debug, clap::Args)]
struct DiffArgs {
    /// The first log (A).
    a: PathBuf,
    /// The second log (B), of the same input content.
    b: PathBuf,
    /// `table` (readable), `csv` (one row per changed job) or `json` (everything, one
    /// object).
    #[arg(long, value_name = "NAME", value_enum, default_value_t = DiffFormat::Table)]
    format: DiffFormat,
    /// Write here (through FILE.tmp, renamed once whole); without it, standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// List at most N changed jobs in the table (all by default); the table says how
    /// many were left out. CSV and JSON list every changed job.
    #[arg(long, value_name = "N", value_parser = replay::diff::parse_limit, allow_hyphen_values = true)]
    limit: Option<usize>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum DiffFormat {
    Table,
    Csv,
    Json,
}

#[derive(Debug, clap::Args)]
struct GanttArgs {
    /// The log to draw.
    log: PathBuf,
    /// Write the SVG here.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Start of the drawn range, in ticks (seconds for SWF traces).
    #[arg(long, value_name = "TICKS", default_value_t = 0)]
    from: u64,
    /// End of the drawn range, in ticks; default the window's last event. Reading
    /// stops past it.
    #[arg(long, value_name = "TICKS")]
    to: Option<u64>,
    /// Rows to draw, `A..B` (B excluded): machines, or a reservation pool's nodes;
    /// without it, every row.
    #[arg(long, value_name = "A..B", value_parser = parse_rows)]
    machines: Option<std::ops::Range<u32>>,
    /// The window to draw (0 is the first): time restarts at each window's reset.
    #[arg(long, value_name = "N", default_value_t = 0)]
    window: u64,
}

fn parse_rows(text: &str) -> Result<std::ops::Range<u32>, String> {
    let (a, b) = text.split_once("..").ok_or_else(|| format!("\"{text}\" is not A..B"))?;
    let number =
        |s: &str| s.trim().parse::<u32>().map_err(|_| format!("\"{s}\" in \"{text}\" is not a row number"));
    let (a, b) = (number(a)?, number(b)?);
    if a >= b {
        return Err(format!("\"{text}\" is empty: A must be less than B"));
    }
    Ok(a..b)
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Jsonl,
    Csv,
    Segments,
    Batsim,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = staged::interrupt::remove_on_signal() {
        return fail(Path::new(""), &format!("cannot watch for interrupts: {e}"));
    }
    if let Err(clash) = distinct_files(&cli.command) {
        let refused = fail(Path::new(""), &clash);
        // `diff`'s 1 means "the logs differ"; its errors are 2.
        return if matches!(cli.command, Command::Diff(_)) { ExitCode::from(2) } else { refused };
    }
    match cli.command {
        Command::Verify { log } => run_verify(&log),
        Command::Import { stream, out } => import_cli::run_import(&stream, &out),
        Command::Export { log, format, out } => run_export(&log, format, out.as_deref()),
        Command::Show { log } => run_show(&log),
        Command::Gantt(args) => run_gantt(&args),
        Command::Diff(args) => run_diff(&args),
    }
}

/// `replay diff`: exit 0 when the records are the same, 1 when they differ, 2 on error.
fn run_diff(args: &DiffArgs) -> ExitCode {
    use replay::diff::{self, Log};
    let trouble = ExitCode::from(2);
    if let Some(stream) = [&args.a, &args.b].into_iter().find(|path| replay::trust::is_stream_file(path)) {
        fail(Path::new(""), &replay::trust::TrustError::Stream { log: stream.display().to_string() });
        return trouble;
    }
    let (name_a, name_b) = (args.a.display().to_string(), args.b.display().to_string());
    let (open_a, open_b) = (|| LogReader::open(&args.a), || LogReader::open(&args.b));
    let found = diff::diff(&Log { name: &name_a, open: &open_a }, &Log { name: &name_b, open: &open_b });
    let found = match found {
        Ok(found) => found,
        Err(e) => {
            fail(Path::new(""), &e);
            return trouble;
        }
    };
    let write = |out: &mut dyn Write| match args.format {
        DiffFormat::Table => diff::write_table(&found, args.limit, out),
        DiffFormat::Csv => diff::write_csv(&found, out),
        DiffFormat::Json => diff::write_json(&found, out),
    };
    let written = match &args.out {
        None => {
            let mut sink = BufWriter::new(io::stdout().lock());
            match write(&mut sink).and_then(|()| sink.flush()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    Err(fail(Path::new("standard output"), &e))
                }
                _ => Ok(()),
            }
        }
        Some(path) => staged::write(path, |file, tmp| {
            let mut sink = BufWriter::new(file);
            write(&mut sink)
                .and_then(|()| sink.flush())
                .map_err(|source| StageError { path: tmp.to_owned(), source })
        })
        .map_err(|e| fail(Path::new(""), &e)),
    };
    match written {
        Err(_) => trouble,
        Ok(()) if found.same_records() => ExitCode::SUCCESS,
        Ok(()) => ExitCode::FAILURE,
    }
}

/// Refuses an output that is the log it reads, before anything is read.
fn distinct_files(command: &Command) -> Result<(), staged::Clash> {
    match command {
        Command::Export { log, out: Some(out), .. } => staged::distinct(&[("LOG", log)], &[("--out", out)]),
        Command::Gantt(args) => staged::distinct(&[("LOG", &args.log)], &[("--out", &args.out)]),
        Command::Import { stream, out } => staged::distinct(&[("STREAM", stream)], &[("--out", out)]),
        Command::Diff(DiffArgs { a, b, out: Some(out), .. }) => {
            staged::distinct(&[("A", a), ("B", b)], &[("--out", out)])
        }
        _ => Ok(()),
    }
}

fn run_gantt(args: &GanttArgs) -> ExitCode {
    use replay::gantt;
    if let Err(e) = vouch_file(&args.log) {
        return fail(Path::new(""), &e);
    }
    let reader = match LogReader::open(&args.log) {
        Ok(reader) => reader,
        Err(e) => return fail(&args.log, &e),
    };
    let options =
        gantt::Options { from: args.from, to: args.to, rows: args.machines.clone(), window: args.window };
    let chart = match gantt::collect(reader, &options) {
        Ok(chart) => chart,
        Err(e) => return fail(&args.log, &e),
    };
    let svg = gantt::svg::write(&chart);
    match staged::write(&args.out, |file, _| {
        let mut out = BufWriter::new(file);
        out.write_all(svg.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|source| StageError { path: args.out.clone(), source })
    }) {
        Ok(()) => {
            eprintln!(
                "replay: drew {} runs and {} marks of t {}..{} to {}",
                chart.bars.len(),
                chart.marks.len(),
                chart.from,
                chart.to,
                args.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(Path::new(""), &e),
    }
}

fn run_verify(log: &Path) -> ExitCode {
    match import_cli::is_stream(log) {
        Ok(true) => return import_cli::verify_stream(log),
        Ok(false) => {}
        Err(e) => return fail(log, &e),
    }
    let reader = match LogReader::open(log) {
        Ok(reader) => reader,
        Err(e) => return fail(log, &e),
    };
    match verify(reader) {
        Ok(report) => write_summary(&report.summary(&log.display().to_string())),
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

/// Exports to `out` through `OUT.tmp`, renamed only once the whole log was read, so
/// a damaged log never leaves a partial export that looks whole.
fn run_export(log: &Path, format: Format, out: Option<&Path>) -> ExitCode {
    let reader = match open_vouched(log) {
        Ok(reader) => reader,
        Err(code) => return code,
    };
    let Some(path) = out else {
        let mut sink = BufWriter::new(io::stdout().lock());
        let result = export_as(format, reader, &mut sink);
        let flushed = sink.flush();
        return finish_output(log, Path::new("standard output"), result, flushed);
    };
    let exported = staged::write(path, |file, tmp| {
        let mut sink = BufWriter::new(file);
        let result = export_as(format, reader, &mut sink);
        let flushed = sink.flush();
        match (result, flushed) {
            (Ok(_), Ok(())) => Ok(()),
            (Err(ExportError::Output(source)), _) => {
                Err(Staged::Out(StageError { path: tmp.to_owned(), source }))
            }
            (Err(e), _) => Err(Staged::Log(e)),
            (Ok(_), Err(source)) => Err(Staged::Out(StageError { path: tmp.to_owned(), source })),
        }
    });
    match exported {
        Ok(()) => ExitCode::SUCCESS,
        Err(Staged::Log(e)) => fail(log, &e),
        Err(Staged::Out(e)) => fail(Path::new(""), &e),
    }
}

fn export_as<R: io::Read>(
    format: Format,
    reader: LogReader<R>,
    out: &mut dyn Write,
) -> Result<u64, ExportError> {
    match format {
        Format::Jsonl => replay::export::jsonl(reader, &mut { out }),
        Format::Csv => replay::jobs::export_csv(reader, &mut { out }),
        Format::Segments => replay::jobs::segments_csv(reader, &mut { out }),
        Format::Batsim => replay::jobs::batsim::export(reader, &mut { out }),
    }
}

/// Why a staged export failed: the log, or the output file.
enum Staged {
    Log(ExportError),
    Out(StageError),
}

impl From<StageError> for Staged {
    fn from(e: StageError) -> Self {
        Self::Out(e)
    }
}

/// The log open for reading, once it verifies ([`vouch_file`]).
fn open_vouched(log: &Path) -> Result<LogReader<io::BufReader<std::fs::File>>, ExitCode> {
    vouch_file(log).map_err(|e| fail(Path::new(""), &e))?;
    LogReader::open(log).map_err(|e| fail(log, &e))
}

/// Lists the log as it is, to look into one that does not verify; such a log is
/// checked first all the same, said so on standard error, and exits 1.
fn run_show(log: &Path) -> ExitCode {
    let untrusted = vouch_file(log).err();
    if let Some(replay::trust::TrustError::Unverified { error, .. }) = &untrusted {
        eprintln!("warning: {} does not verify, and is listed as it is: {error}", log.display());
    }
    let reader = match LogReader::open(log) {
        Ok(reader) => reader,
        Err(e) => return fail(log, &e),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let result = replay::export::show(reader, &mut out);
    let flushed = out.flush();
    let code = finish_output(log, Path::new("standard output"), result, flushed);
    if untrusted.is_some() { ExitCode::FAILURE } else { code }
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
        (Err(ExportError::Output(e)), _) => fail(out, &e),
        (Err(e), _) => fail(log, &e),
        (Ok(_), Err(e)) => fail(out, &e),
    }
}

/// Reports `error` about `path` (an empty path when the error names its own).
fn fail(path: &Path, error: &dyn std::fmt::Display) -> ExitCode {
    if path.as_os_str().is_empty() {
        eprintln!("error: {error}");
    } else {
        eprintln!("error: {}: {error}", path.display());
    }
    ExitCode::FAILURE
}
