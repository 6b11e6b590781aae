//! Every path option of every subcommand of host-sim's own definition is resolved
//! against the scenario's folder. This file is compiled with the binary (`main.rs`
//! declares it) because the whole definition, `compare` and `config` included, lives
//! there; iterating it means a new path option is checked without touching this test.

use std::path::PathBuf;

use clap::CommandFactory;
use clap::error::ErrorKind;

use crate::config;

/// Whether `--long probe` parses for `sub` and is stored as a `PathBuf`: found from
/// what clap hands back, not from how the option is declared. `None` when the value
/// is refused (a number, a name from a list), which no path option does.
fn parses_as_path(sub: &clap::Command, id: &str, long: &str) -> Option<bool> {
    let trial = sub.clone().mut_args(|a| a.required(false)).no_binary_name(true);
    match trial.try_get_matches_from([format!("--{long}"), "probe".to_owned()]) {
        Ok(matches) => Some(matches.try_get_one::<PathBuf>(id).is_ok_and(|v| v.is_some())),
        Err(e) if matches!(e.kind(), ErrorKind::InvalidValue | ErrorKind::ValueValidation) => None,
        Err(e) => panic!("{} --{long} probe: {e}", sub.get_name()),
    }
}

#[test]
fn every_path_option_of_every_subcommand_is_relative_to_the_scenario() {
    let cli = crate::app::Cli::command();
    let dir = std::env::temp_dir().join(format!("host-sim-config-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("probe.toml");
    let resolved = dir.join("probe").into_os_string();
    let mut paths = Vec::new();
    // `config` reads no scenario (see `ConfigError::ForConfig`).
    for sub in cli.get_subcommands().filter(|s| s.get_name() != "config") {
        let name = sub.get_name();
        for arg in sub.get_arguments() {
            // Flags and `--help` take no value, so cannot be paths.
            let (Some(long), true) = (arg.get_long(), arg.get_action().takes_values()) else { continue };
            let Some(is_path) = parses_as_path(sub, arg.get_id().as_str(), long) else { continue };
            std::fs::write(&file, format!("command = \"{name}\"\n{long} = \"probe\"\n")).unwrap();
            let args = ["host-sim".into(), "--config".into(), file.clone().into_os_string()];
            let expanded = config::expand(args.to_vec(), &cli).unwrap();
            let value = expanded.args.last().unwrap();
            let expected = if is_path { &resolved } else { &"probe".into() };
            assert_eq!(value, expected, "{name} --{long}: {:?}", expanded.args);
            if is_path {
                paths.push(format!("{name} --{long}"));
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // The probe found the options known to be paths, so it is not checking nothing.
    for known in ["run --jobs-out", "run --log", "run --trace", "tiers --availability", "compare --out"] {
        assert!(paths.iter().any(|p| p == known), "{known} not among {paths:?}");
    }
}

/// `config --defaults --command NAME`, read back as a scenario, gives what `NAME`
/// alone gives, for every subcommand: each printed default is the real one (the
/// arguments a run cannot do without, which the file leaves commented, are given to
/// both).
#[test]
fn every_printed_default_reads_back_as_the_real_defaults() {
    use clap::Parser;
    let cli = crate::app::Cli::command();
    let dir = std::env::temp_dir().join(format!("host-sim-config-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("defaults.toml");
    for sub in cli.get_subcommands().filter(|s| s.get_name() != "config") {
        let name = sub.get_name();
        let mut required: Vec<String> = Vec::new();
        // "1" reads as every required value: a number (`slurm --shards`), a path, a word;
        // a positional that comes last (`slurm -- SWEEP`) after `--`.
        for arg in sub.get_arguments().filter(|a| a.is_required_set()) {
            required.extend(arg.get_long().map(|long| format!("--{long}")));
            required.extend(arg.is_last_set().then(|| "--".to_owned()));
            required.push("1".to_owned());
        }
        std::fs::write(&file, config::defaults(&cli, name).unwrap()).unwrap();
        let mut args = vec!["host-sim".into(), "--config".into(), file.clone().into_os_string()];
        args.extend(required.iter().map(Into::into));
        let read_back = config::expand(args, &cli).unwrap_or_else(|e| panic!("{name}: {e}"));
        let parsed = |args: Vec<std::ffi::OsString>| match crate::app::Cli::try_parse_from(args) {
            Ok(cli) => format!("{cli:?}"),
            Err(e) => panic!("{name}: {e}"),
        };
        let alone = ["host-sim", name].into_iter().map(str::to_owned).chain(required.iter().cloned());
        assert_eq!(parsed(read_back.args), parsed(alone.map(Into::into).collect()), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
