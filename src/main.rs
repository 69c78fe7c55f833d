//! The `radtap` command line: wires frontends, (later) analyses and differentiation, and the
//! unparsers. Tapenade's single-dash long options (`-head`, `-vars`) are accepted as well as
//! GNU double-dash forms.

use clap::Parser;
use radtap::{run, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(help) = radtap::command_help(&raw) {
        print!("{help}");
        return ExitCode::SUCCESS;
    }
    let args = radtap::normalize_args(raw.into_iter());
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
    // The parser's lowering, the visitors, the analyses, the differentiators and the
    // unparsers recurse on the expression and statement trees: they run on a thread whose
    // stack (reserved address space, touched only as deep as the input nests) covers the
    // deepest nesting the frontends accept (`radtap_frontends::MAX_NESTING`, `MAX_BLOCKS`
    // and, for chains such as flat sums, `MAX_DEPTH`; past them, AD014).
    let worker = std::thread::Builder::new()
        .name("radtap".into())
        .stack_size(radtap::STACK_BYTES)
        .spawn(move || run(&cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(status)) => ExitCode::from(status),
        // A panic has printed its message; 3 is the internal-error status.
        Ok(Err(_)) => ExitCode::from(3),
        Err(e) => {
            eprintln!("radtap: error: cannot start the worker thread: {e}");
            ExitCode::from(3)
        }
    }
}
