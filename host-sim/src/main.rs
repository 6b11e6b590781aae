//! The `host-sim` command line: `run` (the default), `sweep`, `reserve`,
//! `reserve-sweep`, `tiers`, `tiers-sweep`, `sla`, `sla-sweep`, `criteria`, `compare`,
//! `whatif` and `config`; every subcommand takes `--config FILE`. Its definition,
//! checks and dispatch are the library's [`host_sim::app`], which the Python package
//! runs too.

fn main() -> std::process::ExitCode {
    host_sim::app::main()
}
