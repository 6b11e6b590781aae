//! `cargo xtask embedded`: the four kernels on a Cortex-M4F under QEMU, byte for byte
//! against the host.
//!
//! 1. Makes the event streams from the shared traces ([`streams`]: service level and
//!    reservation) and from fixed scenarios ([`scenarios`]: tiers and SLA) and the
//!    records the host's kernels decide for them, and writes the streams file the
//!    firmware includes: `target/embedded/streams.bin` (generated, never committed).
//! 2. Builds `embedded/firmware` for `thumbv7em-none-eabihf` with that file.
//! 3. Runs it on `qemu-system-arm -machine mps2-an386` with a time limit; the
//!    firmware writes its records and its defmt frames to files over semihosting.
//! 4. Compares the firmware's record streams (`kernel::stream`) byte for byte with the
//!    streams the host's records make ([`compare`]); a difference fails and names the
//!    first differing record. Then imports each stream into a decision log, verifies
//!    it, and checks that one flipped byte costs exactly one frame, named by its
//!    offset ([`imported`]).
//! 5. Decodes the defmt log with `embedded/defmt-log` and checks it holds one line per
//!    rejection and the summaries.
//! 6. Reports flash and RAM (`text`, `data`, `bss`), the kernels' state sizes and the
//!    stack's high-water mark per kernel.

pub mod compare;
mod imported;
pub mod scenarios;
pub mod streams;
#[cfg(test)]
mod tests;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kernel::log::{Body, Record};
use kernel::stream::DeviceModel;

use crate::cmd::{Result, cargo, render, root, run, shared_traces, target_dir, wait_within, works};
use crate::toolchain::{EMBEDDED_TARGET, ensure_target, size_tool};

pub const QEMU: &str = "qemu-system-arm";
/// QEMU runs the whole firmware in a few seconds; past this it is stuck.
const TIME_LIMIT: Duration = Duration::from_secs(120);
const FIRMWARE: &str = "kernel-firmware";

/// Whether `qemu-system-arm` runs here.
pub fn qemu_present() -> bool {
    works(Command::new(QEMU).arg("--version"))
}

/// One model's stream as the check compares it: the firmware's file, its setup, and
/// the host's records.
struct Checked {
    name: &'static str,
    model: DeviceModel<{ compare::SETUP_LIST }>,
    expected: Vec<Record>,
}

impl Checked {
    fn file(&self) -> String {
        format!("{}.stream", self.name)
    }
}

/// The whole check. `tamper` changes one processing time in the host's copy of the
/// service-level stream after the firmware has run: the comparison must then fail,
/// naming the first differing record.
pub fn embedded(tamper: bool) -> Result {
    if !qemu_present() {
        return Err(format!("embedded: {QEMU} is not installed (Debian: `apt-get install qemu-system-arm`)"));
    }
    let Some(traces) = shared_traces("embedded")? else { return Ok(()) };
    let find = |name: &str| {
        traces
            .iter()
            .find(|p| p.file_name().is_some_and(|n| n == name))
            .cloned()
            .ok_or_else(|| format!("embedded: ../shared/traces/{name} is missing"))
    };
    println!(
        "==> embedded: event streams from {} and {}, the tiers testbed and the SLA sets",
        streams::SERVICE_TRACE,
        streams::RESERVATION_TRACE
    );
    let service = streams::service(&find(streams::SERVICE_TRACE)?).map_err(|e| format!("embedded: {e}"))?;
    let resv =
        streams::reservation(&find(streams::RESERVATION_TRACE)?).map_err(|e| format!("embedded: {e}"))?;
    let (mut checked, bytes) = make_streams(&service, &resv).map_err(|e| format!("embedded: {e}"))?;
    let dir = target_dir().join("embedded");
    let run_dir = dir.join("run");
    fs::create_dir_all(&run_dir)
        .map_err(|e| format!("embedded: cannot create {}: {e}", run_dir.display()))?;
    let streams_file = dir.join("streams.bin");
    fs::write(&streams_file, &bytes)
        .map_err(|e| format!("embedded: cannot write {}: {e}", streams_file.display()))?;

    let elf = build_firmware(&dir, &streams_file)?;
    let figures = run_qemu(&elf, &run_dir, &checked)?;

    if tamper {
        tamper_one(&mut checked[0].expected, &service)?;
    }
    let mut written = Vec::new();
    for c in &checked {
        let path = run_dir.join(c.file());
        let stream = fs::read(&path)
            .map_err(|e| format!("embedded: the firmware wrote no {}: {e}", path.display()))?;
        let count = compare::compare(c.name, &stream, c.model.clone(), &c.expected)?;
        println!("==> embedded: {}: {count} records identical (firmware stream = host stream)", c.name);
        written.push(stream);
    }
    for (c, stream) in checked.iter().zip(&written) {
        imported::check(&run_dir, &c.file(), stream)?;
    }
    let rejections = checked.iter().map(|c| count_rejections(&c.expected)).sum();
    defmt_log(&dir, &elf, &run_dir, rejections)?;
    report(&elf, &figures, bytes.len())
}

/// The four models' streams and the streams file that holds their events.
fn make_streams(
    service: &streams::Stream<streams::ServiceConfig>,
    resv: &streams::Stream<kernel::reservation::Config>,
) -> std::result::Result<(Vec<Checked>, Vec<u8>), String> {
    let tiers = scenarios::tiers()?;
    let sla = scenarios::sla()?;
    let bytes = streams::file(&[
        streams::service_section(service)?,
        streams::reservation_section(resv)?,
        streams::section(scenarios::tiers_setup(&tiers.config)?, &tiers.events)?,
        streams::section(scenarios::sla_setup(sla.config)?, &sla.events)?,
    ])?;
    println!(
        "==> embedded: {} service-level events ({} jobs of {}), {} reservation events ({} jobs of {}), \
         {} tiers events (the paper's testbed, mix {}, seed {}), {} SLA events ({} generated sets): {} bytes",
        service.events.len(),
        streams::SERVICE_JOBS,
        streams::SERVICE_TRACE,
        resv.events.len(),
        streams::RESERVATION_JOBS,
        streams::RESERVATION_TRACE,
        tiers.events.len(),
        scenarios::TIERS_MIX,
        scenarios::TIERS_SEED,
        sla.events.len(),
        scenarios::SLA_SETS,
        bytes.len()
    );
    let checked = vec![
        Checked {
            name: "service-level",
            model: streams::service_model(&service.config)?,
            expected: service.expected.clone(),
        },
        Checked {
            name: "reservation",
            model: streams::reservation_model(resv.config),
            expected: resv.expected.clone(),
        },
        Checked { name: "tiers", model: scenarios::tiers_model(&tiers.config)?, expected: tiers.expected },
        Checked { name: "sla", model: scenarios::sla_model(sla.config), expected: sla.expected },
    ];
    Ok((checked, bytes))
}

/// The changed processing time of `--tamper`: the 1000th submit's `p` plus one, and
/// the host's records re-decided from the changed stream.
fn tamper_one(host: &mut Vec<Record>, service: &streams::Stream<streams::ServiceConfig>) -> Result {
    let mut events = service.events.clone();
    let submit = events
        .iter_mut()
        .filter_map(|b| match b {
            Body::Event(kernel::service_level::Event::Submit { p, .. }) => Some(p),
            _ => None,
        })
        .nth(999)
        .ok_or("embedded: --tamper: the stream has fewer than 1000 submits")?;
    *submit += 1;
    println!("==> embedded: --tamper: the host's copy of submit 1000 now asks for {submit} ticks");
    *host = streams::decide_service(&service.config, &events).map_err(|e| format!("embedded: {e}"))?;
    Ok(())
}

fn count_rejections(records: &[Record]) -> usize {
    records
        .iter()
        .filter(|r| {
            matches!(
                r.body,
                Body::Decision(kernel::service_level::Decision::Reject { .. })
                    | Body::ReservationDecision(kernel::reservation::Decision::Reject { .. })
                    | Body::TiersDecision(kernel::tiers::Decision::Reject { .. })
                    | Body::SlaDecision(kernel::sla::Decision::Reject { .. })
            )
        })
        .count()
}

fn build_firmware(dir: &Path, streams_file: &Path) -> Result<PathBuf> {
    ensure_target("bench: add embedded target")?;
    let mut build = cargo();
    build
        .args(["build", "--release", "-p", FIRMWARE, "--target", EMBEDDED_TARGET, "--manifest-path"])
        .arg(root().join("embedded/Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.join("build"))
        .env("EMBEDDED_STREAMS", streams_file)
        // defmt drops every level below `error` at compile time unless told otherwise.
        .env("DEFMT_LOG", "info");
    run("embedded: firmware", &mut build)?;
    Ok(dir.join("build").join(EMBEDDED_TARGET).join("release").join(FIRMWARE))
}

/// The firmware's `FIGURES` line, as (name, value) pairs.
type Figures = Vec<(String, u64)>;

fn run_qemu(elf: &Path, run_dir: &Path, checked: &[Checked]) -> Result<Figures> {
    for name in checked.iter().map(Checked::file).chain(["defmt.bin".to_owned()]) {
        let _ = fs::remove_file(run_dir.join(name));
    }
    let mut cmd = Command::new(QEMU);
    cmd.args(["-machine", "mps2-an386", "-nographic", "-semihosting-config", "enable=on,target=native"])
        .arg("-kernel")
        .arg(elf)
        .current_dir(run_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    println!("==> embedded: QEMU (at most {} s): {}", TIME_LIMIT.as_secs(), render(&cmd));
    let started = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("embedded: cannot start {}: {e}", render(&cmd)))?;
    let status = wait_within(&mut child, TIME_LIMIT, "embedded: QEMU")?;
    let output = child.wait_with_output().map_err(|e| format!("embedded: QEMU's output: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("==> embedded: QEMU exited with {status} after {:.1} s", started.elapsed().as_secs_f64());
    if !status.success() {
        return Err(format!("embedded: the firmware failed ({status}):\n{stdout}{stderr}"));
    }
    let lines: Vec<&str> = stdout.lines().filter_map(|l| l.strip_prefix("FIGURES ")).collect();
    if lines.len() != checked.len() {
        return Err(format!(
            "embedded: the firmware printed {} FIGURES lines, not one per model:\n{stdout}{stderr}",
            lines.len()
        ));
    }
    lines
        .iter()
        .flat_map(|l| l.split_whitespace())
        .map(|pair| {
            let (name, value) = pair.split_once('=').ok_or_else(|| format!("embedded: bad figure {pair}"))?;
            let value = value.parse().map_err(|e| format!("embedded: figure {name}: {e}"))?;
            Ok((name.to_owned(), value))
        })
        .collect()
}

/// Decodes `defmt.bin` with the firmware's ELF; the log must hold the summaries and one
/// line per rejection.
fn defmt_log(dir: &Path, elf: &Path, run_dir: &Path, rejections: usize) -> Result {
    let mut build = cargo();
    build
        .args(["build", "--release", "-p", "defmt-log", "--manifest-path"])
        .arg(root().join("embedded/Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.join("build"));
    run("embedded: defmt-log (host)", &mut build)?;
    let tool = dir.join("build/release/defmt-log");
    let mut cmd = Command::new(&tool);
    cmd.arg(elf).arg(run_dir.join("defmt.bin"));
    let output = cmd.output().map_err(|e| format!("embedded: cannot start {}: {e}", render(&cmd)))?;
    if !output.status.success() {
        return Err(format!(
            "embedded: `{}` failed: {}",
            render(&cmd),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let log = run_dir.join("defmt.log");
    fs::write(&log, text.as_bytes()).map_err(|e| format!("embedded: cannot write {}: {e}", log.display()))?;
    let rejected_lines = text.lines().filter(|l| l.contains(" rejected: ")).count();
    println!("==> embedded: defmt log ({} lines, decoded to {}):", text.lines().count(), log.display());
    for line in text.lines().filter(|l| !l.contains(" rejected: ")) {
        println!("    {line}");
    }
    if let Some(first) = text.lines().find(|l| l.contains(" rejected: ")) {
        println!("    {first}   (the first of {rejected_lines} rejection lines)");
    }
    if rejected_lines != rejections {
        return Err(format!(
            "embedded: the defmt log has {rejected_lines} rejection lines, the records {rejections} rejections"
        ));
    }
    for summary in ["service-level", "reservation", "tiers", "sla", "stack high-water"] {
        if !text.contains(&format!("INFO  {summary}: ")) {
            return Err(format!("embedded: the defmt log lacks the {summary} summary"));
        }
    }
    Ok(())
}

/// `llvm-size`'s Berkeley line: text (code, read-only data, the vector table), data,
/// bss.
fn sizes(elf: &Path) -> Result<(u64, u64, u64)> {
    let tool = size_tool().ok_or("no size tool reads ARM ELF here (Debian: `apt-get install llvm`)")?;
    let mut cmd = Command::new(&tool);
    cmd.arg(elf);
    let output = cmd.output().map_err(|e| format!("embedded: cannot start {}: {e}", render(&cmd)))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let numbers: Vec<u64> =
        text.lines().nth(1).unwrap_or("").split_whitespace().take(3).filter_map(|f| f.parse().ok()).collect();
    match numbers[..] {
        [t, d, b] => Ok((t, d, b)),
        _ => Err(format!("embedded: `{}` printed no sizes:\n{text}", render(&cmd))),
    }
}

fn report(elf: &Path, figures: &Figures, streams_bytes: usize) -> Result {
    let figure = |name: &str| figures.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| *v);
    println!("==> embedded: firmware {}", elf.display());
    match sizes(elf) {
        Ok((text, data, bss)) => {
            println!(
                "    flash: text {text} bytes (of which {streams_bytes} are the compiled-in event streams: \
                 {} without them), data {data}",
                text.saturating_sub(streams_bytes as u64)
            );
            println!("    RAM:   data {data} + bss {bss} bytes, plus the stack (the kernels live on it)");
        }
        // The comparison is the check; the sizes are figures a missing tool only hides.
        Err(e) => println!("    flash and RAM: NOT MEASURED: {e}"),
    }
    for (model, key, kernel) in [
        ("service-level", "service", "ServiceLevelKernel<4, 32, 8>"),
        ("reservation", "reservation", "ReservationKernel<16384, 256, 256, 8>"),
        ("tiers", "tiers", "TiersKernel<16, 2048, 1024>"),
        ("sla", "sla", "SlaKernel<65536, 4096>"),
    ] {
        println!(
            "    {model}: {kernel}: state {} bytes; {} events -> {} records ({} stream bytes); \
             stack high-water {} bytes (state and a 4 KiB record buffer included: they live \
             in the run function's frame), of which the decision path (step, sink, encoding) {} bytes",
            figure(&format!("{key}_state")),
            figure(&format!("{key}_events")),
            figure(&format!("{key}_records")),
            figure(&format!("{key}_bytes")),
            figure(&format!("{key}_stack")),
            figure(&format!("{key}_step_stack")),
        );
    }
    Ok(())
}
