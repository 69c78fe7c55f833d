//! [`Outcome`]: what one run of the command line produced, before anything is printed.

use std::path::PathBuf;

/// What a run produced, for tests and the CLI.
#[derive(Default)]
pub struct Outcome {
    /// The generated tangent code (program and head interfaces), when `-d` ran.
    pub tangent: Option<radtap_diff_tangent::Output>,
    /// The generated adjoint code, when `-b` ran.
    pub adjoint: Option<radtap_diff_tangent::Output>,
    /// Exit status.
    pub status: u8,
    /// Everything written to stderr.
    pub stderr: String,
    /// Files written (path, contents).
    pub written: Vec<(PathBuf, String)>,
    /// What goes to stdout (`-dump-analysis`).
    pub dump: String,
}
