//! The `radtap` command line: wires frontends, (later) analyses and differentiation, and the
//! unparsers. Tapenade's single-dash long options (`-head`, `-vars`) are accepted as well as
//! GNU double-dash forms.

use clap::Parser;
use radtap::{run, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args =
        radtap::normalize_args(std::env::args_os().map(|a| a.to_string_lossy().into_owned()));
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(2),
            };
        }
    };
    ExitCode::from(run(&cli))
}
