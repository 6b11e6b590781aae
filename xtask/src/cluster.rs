//! `cargo xtask cluster` (a step of `verify`): a sharded sweep on a real Slurm. It
//! starts a one-node Slurm from Debian's packages (`munged`, then `slurmctld` and
//! `slurmd` as root, with a generated `slurm.conf`: `proctrack/linuxproc` and
//! `task/none` need no cgroups), writes a 4-shard KTH sweep as a job array with
//! `host-sim slurm`, submits it and its merge, waits, and compares the merged outputs
//! with the unsplit run's, byte for byte. Then one shard's folder is removed, that
//! task runs again alone, the merge again, and the bytes must still be the same. Every
//! daemon it started is stopped, whatever happened.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::cmd::{Result, host_sim_bin, run, shared_traces, skipped, target_dir, works};

/// The programs the step needs, all from `slurm-wlm` and `munge`.
const TOOLS: &[&str] = &["munged", "munge", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol"];

/// The sweep the shards split.
const SWEEP: &[&str] = &["sweep", "--machine-counts", "1,4", "--no-plots"];

/// The cv grid the shards split: windows that the solver closes in well under its
/// limit, or that need no solver, so that every value is exact and the same in any run.
const CV_SWEEP: &[&str] = &[
    "cv-sweep",
    "--window",
    "1d",
    "--weeks",
    "4",
    "--modes",
    "single",
    "--slacks",
    "3,6",
    "--machine-counts",
    "1",
    "--no-plots",
];

pub fn cluster() -> Result {
    let Some(traces) = shared_traces("cluster")? else { return Ok(()) };
    let kth =
        traces.iter().find(|t| t.ends_with("KTH-SP2-1996-2.1-cln.swf.gz")).ok_or("cluster: no KTH trace")?;
    let lost = "no sharded sweep ran on Slurm";
    if let Some(tool) =
        TOOLS.iter().find(|t| !works(Command::new("sh").args(["-c", &format!("command -v {t}")])))
    {
        return skipped(
            "cluster",
            &format!("{tool} (Slurm and munge)"),
            lost,
            "apt-get install slurm-wlm munge",
        );
    }
    if !works(Command::new("sh").args(["-c", "test \"$(id -u)\" = 0"])) {
        return skipped("cluster", "root (the daemons run as root)", lost, "run verify as root");
    }
    let dir = target_dir().join("xtask/cluster");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("state"))
        .map_err(|e| format!("cluster: cannot create {}: {e}", dir.display()))?;
    let conf = write_conf(&dir)?;
    let daemons = Daemons::start(&dir, &conf)?;
    let ran = study(&dir, &conf, kth);
    drop(daemons);
    ran
}

/// The slurm.conf of a one-node cluster on this host, in `dir`.
fn write_conf(dir: &Path) -> Result<PathBuf> {
    let host = output(Command::new("hostname").arg("-s"))?;
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let d = dir.display();
    let text = format!(
        "ClusterName=xtask\nSlurmctldHost={host}\nSlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n\
         ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\n\
         SelectTypeParameters=CR_Core_Memory\nStateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
         SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\nSlurmctldLogFile={d}/slurmctld.log\n\
         SlurmdLogFile={d}/slurmd.log\nMpiDefault=none\nReturnToService=2\nJobAcctGatherType=jobacct_gather/none\n\
         AccountingStorageType=accounting_storage/none\nNodeName={host} CPUs={cpus} RealMemory=2000 State=UNKNOWN\n\
         PartitionName=xtask Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n"
    );
    let conf = dir.join("slurm.conf");
    fs::write(&conf, text).map_err(|e| format!("cluster: cannot write {}: {e}", conf.display()))?;
    Ok(conf)
}

/// The daemons this step started, stopped when dropped.
struct Daemons {
    dir: PathBuf,
    conf: PathBuf,
    munged: bool,
}

impl Daemons {
    fn start(dir: &Path, conf: &Path) -> Result<Self> {
        // munged may already run (another step, the machine's own); then it stays.
        let munge_works = || works(Command::new("sh").args(["-c", "munge -n | unmunge"]));
        let mut daemons = Self { dir: dir.to_owned(), conf: conf.to_owned(), munged: false };
        if !munge_works() {
            let _ = fs::create_dir_all("/run/munge");
            let _ = Command::new("chown").args(["munge:munge", "/run/munge"]).status();
            run("cluster: munged", Command::new("munged").arg("--force"))?;
            daemons.munged = true;
            wait_for("munged", Duration::from_secs(20), munge_works)?;
        }
        fs::create_dir_all(dir.join("spool")).map_err(|e| format!("cluster: {e}"))?;
        run("cluster: slurmctld", Command::new("slurmctld").env("SLURM_CONF", conf))?;
        run("cluster: slurmd", Command::new("slurmd").env("SLURM_CONF", conf))?;
        let idle = || {
            output(Command::new("sinfo").args(["-h", "-o", "%t"]).env("SLURM_CONF", conf))
                .is_ok_and(|s| s == "idle")
        };
        wait_for("the node to be idle", Duration::from_secs(60), idle)?;
        Ok(daemons)
    }
}

impl Drop for Daemons {
    fn drop(&mut self) {
        let _ = Command::new("scontrol").arg("shutdown").env("SLURM_CONF", &self.conf).status();
        // Each daemon removes its pid file as it exits (an exited daemon may linger a
        // moment as a zombie, which a process listing would still show).
        let pids = [self.dir.join("slurmctld.pid"), self.dir.join("slurmd.pid")];
        let _ = wait_for("slurm to stop", Duration::from_secs(30), || pids.iter().all(|p| !p.exists()));
        if self.munged {
            let _ = Command::new("sh").args(["-c", "kill $(cat /run/munge/munged.pid)"]).status();
        }
        println!("==> cluster: the daemons it started are stopped");
    }
}

/// A sharded study: its subcommand and options, and the files its merge must share
/// with the unsplit run.
struct Study {
    name: &'static str,
    args: Vec<String>,
    /// Each file, and whether its last column is measured time (cv.csv's
    /// `solve_seconds`, which no two runs share) and so left out of the comparison.
    files: &'static [(&'static str, bool)],
}

/// The sharded sweeps on the cluster against their unsplit runs: the service-level
/// sweep (with one shard run again alone), and `cv-sweep` when the solver is built.
fn study(dir: &Path, conf: &Path, kth: &Path) -> Result {
    let trace = |args: &[&str]| {
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.extend(["--trace".to_owned(), kth.display().to_string()]);
        args
    };
    let sweep =
        Study { name: "sweep", args: trace(SWEEP), files: &[("sweep.csv", false), ("sweep.json", false)] };
    submitted(dir, conf, &sweep)?;
    fs::remove_dir_all(dir.join("sweep/shard-3")).map_err(|e| format!("cluster: {e}"))?;
    let again = ["--array=3", "sweep/shards.sbatch"];
    run(
        "cluster: shard 3 again",
        Command::new("sbatch").args(again).current_dir(dir).env("SLURM_CONF", conf),
    )?;
    drained(conf)?;
    run(
        "cluster: merge again",
        Command::new("sbatch").arg("sweep/merge.sbatch").current_dir(dir).env("SLURM_CONF", conf),
    )?;
    drained(conf)?;
    same(dir, &sweep, "shard 3 run again alone, and merged again")?;
    if !crate::toolchain::optimum()? {
        println!(
            "==> cluster: cv-sweep: SKIPPED, host-sim was built without the solver (see the optimum step)"
        );
        return Ok(());
    }
    let files = &[("cv.csv", true), ("cv-summary.csv", false)];
    submitted(dir, conf, &Study { name: "cv-sweep", args: trace(CV_SWEEP), files })
}

/// `study` run unsplit, then as 4 shards and their merge on the cluster: the same bytes.
fn submitted(dir: &Path, conf: &Path, study: &Study) -> Result {
    let whole = dir.join(format!("{}-whole", study.name));
    let mut unsplit = Command::new(host_sim_bin());
    unsplit.args(&study.args).arg("--out").arg(&whole).current_dir(dir);
    run(&format!("cluster: the unsplit {}", study.name), &mut unsplit)?;
    let mut scripts = Command::new(host_sim_bin());
    scripts.args(["slurm", "--shards", "4", "--time", "0:10:00", "--mem", "300M", "--out", study.name, "--"]);
    scripts.args(&study.args).current_dir(dir);
    run("cluster: host-sim slurm", &mut scripts)?;
    let started = Instant::now();
    let submit = format!("{}/submit.sh", study.name);
    run("cluster: submit", Command::new("sh").arg(submit).current_dir(dir).env("SLURM_CONF", conf))?;
    drained(conf)?;
    let elapsed = started.elapsed().as_secs_f64();
    same(dir, study, "the job array and its merge")?;
    println!("==> cluster: {}: 4 shards and their merge ran on Slurm in {elapsed:.1} s", study.name);
    Ok(())
}

/// Waits until no job is queued or running.
fn drained(conf: &Path) -> Result {
    let empty =
        || output(Command::new("squeue").arg("-h").env("SLURM_CONF", conf)).is_ok_and(|s| s.is_empty());
    wait_for("the jobs to end", Duration::from_secs(600), empty)
}

/// The merged outputs are the unsplit run's, byte for byte.
fn same(dir: &Path, study: &Study, what: &str) -> Result {
    let merged_dir = dir.join(study.name).join("merged");
    let read =
        |p: &Path| fs::read(p).map_err(|e| format!("cluster ({what}): cannot read {}: {e}", p.display()));
    for &(name, timed) in study.files {
        let whole = dir.join(format!("{}-whole", study.name)).join(name);
        let merged = merged_dir.join(name);
        let (a, b) = (read(&whole)?, read(&merged)?);
        let equal = if timed { untimed(&a) == untimed(&b) } else { a == b };
        if !equal {
            return Err(format!("cluster ({what}): {} differs from {}", merged.display(), whole.display()));
        }
    }
    let names: Vec<String> = study
        .files
        .iter()
        .map(|&(n, timed)| if timed { format!("{n} (but its measured seconds)") } else { n.to_owned() })
        .collect();
    println!("==> cluster: {}: {what}: {} are the unsplit run's bytes", study.name, names.join(", "));
    Ok(())
}

/// A CSV's lines without their last field (measured seconds).
fn untimed(csv: &[u8]) -> Vec<&[u8]> {
    csv.split(|&b| b == b'\n')
        .map(|line| line.iter().rposition(|&b| b == b',').map_or(line, |i| &line[..i]))
        .collect()
}

fn wait_for(what: &str, limit: Duration, done: impl Fn() -> bool) -> Result {
    let started = Instant::now();
    while !done() {
        if started.elapsed() > limit {
            return Err(format!("cluster: waited {} s for {what}", limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    Ok(())
}

fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd.output().map_err(|e| format!("cluster: cannot run {cmd:?}: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}
