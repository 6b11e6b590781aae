//! `host-sim slurm --shards N --out DIR -- SWEEP ARGS...`: a sharded sweep as a Slurm
//! job array. It writes three files to DIR: `shards.sbatch` (one array task per
//! shard, each running the sweep with `--shard K/N --out DIR/shard-K`),
//! `merge.sbatch` (`host-sim merge` of the N folders into `DIR/merged`) and
//! `submit.sh` (submits the array, then the merge as a job that waits for every
//! task). A failed task runs again alone with `sbatch --array=K DIR/shards.sbatch`,
//! and `sbatch DIR/merge.sbatch` then merges.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::CliError;
use crate::path_error::PathError;

/// What `host-sim slurm` writes to its --out.
pub const FILES: &[&str] = &["shards.sbatch", "merge.sbatch", "submit.sh"];

/// `host-sim slurm`.
#[derive(Clone, Debug, Args)]
pub struct SlurmArgs {
    /// Shards, one array task each.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub shards: u32,
    /// Write shards.sbatch, merge.sbatch and submit.sh here; the shards' folders
    /// (shard-K), their logs (logs/) and the merged outputs (merged/) go here too.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The partition (sbatch --partition); without it, the cluster's default.
    #[arg(long, value_name = "NAME")]
    pub partition: Option<String>,
    /// Each task's time limit, as sbatch takes it (`--time 2:00:00`); without it, the
    /// partition's default.
    #[arg(long, value_name = "DURATION")]
    pub time: Option<String>,
    /// Each task's memory, as sbatch takes it (`--mem 4G`); without it, the partition's
    /// default.
    #[arg(long, value_name = "NUMBER")]
    pub mem: Option<String>,
    /// The host-sim the tasks run, as the nodes see it; without it, this one.
    #[arg(long, value_name = "FILE")]
    pub host_sim: Option<PathBuf>,
    /// The sweep's subcommand and options, after `--` (without --shard and --out).
    #[arg(value_name = "NAME", last = true, required = true)]
    pub command: Vec<OsString>,
}

/// The three files, by name, for `args`, run from the folder `cwd` with `host_sim`.
pub fn scripts(args: &SlurmArgs, cwd: &Path, host_sim: &Path) -> Vec<(&'static str, String)> {
    let out = cwd.join(&args.out);
    let n = args.shards;
    // sbatch reads `#SBATCH` lines up to the first command, and does not unquote them.
    let mut limits = String::new();
    for (option, value) in [("partition", &args.partition), ("time", &args.time), ("mem", &args.mem)] {
        if let Some(value) = value {
            limits.push_str(&format!("#SBATCH --{option}={value}\n"));
        }
    }
    let header = |name: &str, output: &str, more: &str| {
        format!(
            "#!/bin/sh\n#SBATCH --job-name={name}\n#SBATCH --output={}\n{limits}{more}set -eu\ncd {}\n",
            out.join("logs").join(output).display(),
            quote(&cwd.display().to_string()),
        )
    };
    let program = quote(&host_sim.display().to_string());
    let sweep: Vec<String> = args.command.iter().map(|a| quote(&a.to_string_lossy())).collect();
    let prefix = quote(&out.join("shard-").display().to_string());
    let shards = format!(
        "{}exec {program} {} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --out {prefix}\"$SLURM_ARRAY_TASK_ID\"\n",
        header("host-sim-shards", "shard-%a.out", &format!("#SBATCH --array=1-{n}\n")),
        sweep.join(" "),
    );
    let parts: Vec<String> =
        (1..=n).map(|k| quote(&out.join(format!("shard-{k}")).display().to_string())).collect();
    let merge = format!(
        "{}exec {program} merge {} --out {}\n",
        header("host-sim-merge", "merge.out", ""),
        parts.join(" "),
        quote(&out.join("merged").display().to_string())
    );
    let file = |name: &str| quote(&out.join(name).display().to_string());
    let submit = format!(
        "#!/bin/sh\n# The {n} shards as one job array, then their merge once every task ended well.\n\
         set -eu\nmkdir -p {}\narray=$(sbatch --parsable {})\narray=${{array%%;*}}\n\
         merge=$(sbatch --parsable --dependency=afterok:$array {})\necho \"shards: job $array; merge: job $merge\"\n",
        quote(&out.join("logs").display().to_string()),
        file("shards.sbatch"),
        file("merge.sbatch"),
    );
    vec![("shards.sbatch", shards), ("merge.sbatch", merge), ("submit.sh", submit)]
}

/// Refuses what an `#SBATCH` line cannot hold: sbatch splits it at white space and
/// keeps quotes.
pub fn check(args: &SlurmArgs, cwd: &Path) -> Result<(), CliError> {
    let out = cwd.join(&args.out).display().to_string();
    let given = [
        ("--partition", args.partition.as_deref()),
        ("--time", args.time.as_deref()),
        ("--mem", args.mem.as_deref()),
    ];
    for (option, value) in given.into_iter().chain([("--out", Some(out.as_str()))]) {
        if let Some(value) =
            value.filter(|v| v.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"'))
        {
            return Err(CliError::Usage(format!(
                "{option} {}: an #SBATCH line cannot hold white space or quotes; give it without",
                replay::echo::echo(value)
            )));
        }
    }
    Ok(())
}

/// `text` as one word of a POSIX shell, in single quotes.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Writes the scripts of `args` to its --out, run from this folder.
pub fn write(args: &SlurmArgs) -> Result<(), CliError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| CliError::Io(PathError { path, source })
    };
    let cwd = std::env::current_dir().map_err(io(Path::new(".")))?;
    let host_sim = match &args.host_sim {
        Some(path) => path.clone(),
        None => std::env::current_exe().map_err(io(Path::new("host-sim")))?,
    };
    check(args, &cwd)?;
    std::fs::create_dir_all(&args.out).map_err(io(&args.out))?;
    for (name, text) in scripts(args, &cwd, &host_sim) {
        let path = args.out.join(name);
        replay::staged::write(&path, |mut file, tmp| {
            use std::io::Write;
            file.write_all(text.as_bytes()).map_err(io(tmp))
        })?;
    }
    eprintln!(
        "host-sim: wrote {} tasks to {}, their merge to {} and {}; run `sh {}`",
        args.shards,
        args.out.join("shards.sbatch").display(),
        args.out.join("merge.sbatch").display(),
        args.out.join("submit.sh").display(),
        args.out.join("submit.sh").display()
    );
    Ok(())
}
