//! # radtap-web: `radtap serve`, the web submission service, and the `-html` page
//!
//! Tapenade's best-known face is its web page: upload files, name the head, get the
//! derivative. This crate is radtap's: an HTTP service (axum on tokio) over the same library
//! calls as the command line (`radtap-pipeline`), never a shell-out to `radtap` and never its
//! argument parsing. The contract is DESIGN.md's "Web submission service":
//!
//! - `GET /`: the form; `POST /differentiate` (the form, multipart): the result page, each
//!   generated file coloured beside the sources, the diagnostics linked to their lines, the
//!   `.zip` as a `data:` link. No JavaScript anywhere.
//! - `POST /api/differentiate` (JSON in, JSON out), `POST /api/zip`, `GET /api/health`.
//!
//! Invariants:
//! - the generated files are the CLI's, byte for byte: an API request with several modes is
//!   one pipeline request per CLI invocation (`api.rs`, [`runs`]);
//! - the service runs no user code and no compiler; it runs the C preprocessor as the command
//!   line does, on the submitted files written into a private directory of the request
//!   (`scratch.rs`, removed when the request is done), after refusing every include that
//!   could read a file outside it (`includes.rs`): cpp reads the submission and the system
//!   headers, nothing else, and diagnostics name the submitted files, never that directory;
//! - every request is bounded: body size (413), file count and names (400), time (503), and
//!   a panic while serving it is a 500 that leaves the server up (`server.rs`).
//!
//! Files and who names whom: `includes.rs` (which includes a submission may make),
//! `scratch.rs` (the temporary area), `decls.rs` (declaration links), `highlight.rs`
//! (colouring) and `archive.rs` (the zip, base64) name no other file; `api.rs` (the request,
//! its checks, the runs, the outcome) names `decls.rs`, `includes.rs` and `scratch.rs`; `page.rs` names `api.rs`, `archive.rs` and
//! `highlight.rs`; `server.rs` names `api.rs`, `archive.rs`, `page.rs` and `scratch.rs`.

mod api;
mod archive;
mod decls;
mod highlight;
mod includes;
mod page;
mod scratch;
mod server;

pub use api::{
    add, bad_name, differentiate, runs, ApiDiagnostic, ApiOptions, ApiRequest, File, Outcome,
    RunFn, MAX_FILES, MODES,
};
pub use archive::{base64, entries, zip};
pub use page::{form_page, result_page, served_result_page};
pub use scratch::{Area, RequestDir};
pub use server::{router, serve, start, Config, Server};
