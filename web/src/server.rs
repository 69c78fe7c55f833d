//! The HTTP side: the routes, the limits, and starting and stopping the server.
//!
//! Every piece of work that depends on the request's content (JSON decoding, the pipeline,
//! the page, the zip) runs in [`job`]: on tokio's blocking pool, at most `workers` at once
//! (a semaphore), with a panic turned into a 500 answer. The body limit is axum's
//! `DefaultBodyLimit` (413). The time limit covers the whole request, reading the body
//! included, so a client that sends slowly gets a 503 too; a job that outlives its request
//! finishes on its thread and keeps its permit until then, so runaway work stays bounded by
//! `workers`. Connections are accepted here rather than by `axum::serve`, to bound how long
//! one may stay open ([`accept_loop`]).

use crate::api::{self, ApiRequest, File, Outcome, RunFn};
use crate::archive;
use crate::page;
use crate::scratch::Area;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Multipart, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How the service runs (`radtap serve`'s options).
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (`--addr`, default `127.0.0.1:8080`; port 0 picks a free one).
    pub addr: SocketAddr,
    /// Largest request body in bytes (`--max-upload`, default 2 MiB): larger is a 413.
    pub max_upload: usize,
    /// Time limit of a request (`--timeout`, default 20 s): past it, a 503.
    pub timeout: Duration,
    /// Requests differentiated at once and runtime threads (`--workers`, default the cores).
    pub workers: usize,
    /// The pipeline ([`radtap_pipeline::run`]); tests give one that panics or sleeps.
    pub run: RunFn,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_upload: 2 << 20,
            timeout: Duration::from_secs(20),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            run: radtap_pipeline::run,
        }
    }
}

#[derive(Clone)]
struct AppState {
    cfg: Arc<Config>,
    permits: Arc<Semaphore>,
    /// The temporary area; removed once the router and every job are done with it.
    area: Arc<Area>,
}

/// An answer, built inside a [`job`].
enum Answer {
    Json(StatusCode, String),
    Html(StatusCode, String),
    Zip(Vec<u8>),
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        match self {
            Answer::Json(s, v) => {
                (s, [(header::CONTENT_TYPE, "application/json")], v).into_response()
            }
            Answer::Html(s, h) => {
                (s, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], h).into_response()
            }
            Answer::Zip(z) => (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, "application/zip"),
                    (
                        header::CONTENT_DISPOSITION,
                        "attachment; filename=\"radtap.zip\"",
                    ),
                ],
                z,
            )
                .into_response(),
        }
    }
}

fn json_error(status: StatusCode, message: &str) -> Answer {
    Answer::Json(
        status,
        serde_json::json!({ "ok": false, "error": message }).to_string(),
    )
}

/// The routes with their limits.
pub fn router(cfg: Config) -> Router {
    let limit = cfg.max_upload;
    let state = AppState {
        permits: Arc::new(Semaphore::new(cfg.workers.max(1))),
        cfg: Arc::new(cfg),
        area: Arc::new(Area::new()),
    };
    Router::new()
        .route(
            "/",
            get(|| async { Answer::Html(StatusCode::OK, page::form_page(None, None)) }),
        )
        .route("/differentiate", post(form))
        .route("/api/differentiate", post(differentiate))
        .route("/api/zip", post(zip))
        .route(
            "/api/health",
            get(|| async { Json(serde_json::json!({ "ok": true })) }),
        )
        .layer(middleware::from_fn_with_state(state.clone(), time_limit))
        .layer(DefaultBodyLimit::max(limit))
        .with_state(state)
}

/// The time limit of a whole request: 503 past it (an HTML page for the form, JSON for the
/// API).
async fn time_limit(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let secs = st.cfg.timeout.as_secs_f64();
    match tokio::time::timeout(st.cfg.timeout, next.run(req)).await {
        // Over the body limit: say the limit (axum's rejection is a bare text line), as JSON
        // to the API and on the form to the form.
        Ok(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            let m = too_large(st.cfg.max_upload);
            if api {
                json_error(StatusCode::PAYLOAD_TOO_LARGE, &m).into_response()
            } else {
                Answer::Html(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    page::form_page(Some(&m), None),
                )
                .into_response()
            }
        }
        Ok(r) => r,
        Err(_) => {
            let m = format!("the request took longer than the time limit ({secs} s)");
            if api {
                json_error(StatusCode::SERVICE_UNAVAILABLE, &m).into_response()
            } else {
                Answer::Html(
                    StatusCode::SERVICE_UNAVAILABLE,
                    page::form_page(Some(&m), None),
                )
                .into_response()
            }
        }
    }
}

/// The message of a 413: the limit, in bytes and in the unit `--max-upload` is usually given.
fn too_large(limit: usize) -> String {
    let human = if limit >= 1 << 20 && limit.is_multiple_of(1 << 20) {
        format!("{} MiB", limit >> 20)
    } else if limit >= 1 << 10 && limit.is_multiple_of(1 << 10) {
        format!("{} KiB", limit >> 10)
    } else {
        format!("{limit} bytes")
    };
    format!(
        "the request is larger than this service's upload limit of {human} ({limit} bytes, `radtap serve --max-upload`): send fewer or smaller files"
    )
}

/// Runs `f` on the blocking pool once a worker is free, with the pipeline and the temporary
/// area; a panic is a 500.
async fn job(st: &AppState, f: impl FnOnce(RunFn, &Area) -> Answer + Send + 'static) -> Answer {
    let Ok(permit) = st.permits.clone().acquire_owned().await else {
        return json_error(StatusCode::SERVICE_UNAVAILABLE, "the service is stopping");
    };
    let run = st.cfg.run;
    let area = st.area.clone();
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let answer = f(run, &area);
        give_back_memory();
        answer
    });
    match task.await {
        Ok(a) => a,
        Err(e) if e.is_panic() => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: radtap failed on this input (please report it with the input)",
        ),
        Err(_) => json_error(StatusCode::SERVICE_UNAVAILABLE, "the service is stopping"),
    }
}

/// Returns the memory freed by a request to the system (glibc keeps it in its per-thread
/// arenas otherwise, and the server's footprint would creep up with the number of requests
/// served at once, not with the work in flight).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::os::raw::c_int;
        }
        // SAFETY: malloc_trim only releases free memory of the allocator; it takes no
        // pointer and is thread-safe.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Decodes and checks an API body; the error is a 400 answer.
fn decode(body: &[u8]) -> Result<ApiRequest, Answer> {
    let req: ApiRequest = serde_json::from_slice(body)
        .map_err(|e| json_error(StatusCode::BAD_REQUEST, &format!("invalid request: {e}")))?;
    req.check()
        .map_err(|e| json_error(StatusCode::BAD_REQUEST, &e))?;
    Ok(req)
}

async fn differentiate(State(st): State<AppState>, body: Bytes) -> Answer {
    job(&st, move |run, area| {
        let req = match decode(&body) {
            Ok(r) => r,
            Err(a) => return a,
        };
        match api::differentiate(&req, run, area) {
            Ok(out) => Answer::Json(
                StatusCode::OK,
                serde_json::to_string(&out).unwrap_or_default(),
            ),
            Err(e) => json_error(StatusCode::BAD_REQUEST, &e),
        }
    })
    .await
}

async fn zip(State(st): State<AppState>, body: Bytes) -> Answer {
    job(&st, move |run, area| {
        let req = match decode(&body) {
            Ok(r) => r,
            Err(a) => return a,
        };
        match api::differentiate(&req, run, area) {
            Ok(out) if out.ok => {
                let sources: Vec<(String, String)> = req
                    .files
                    .iter()
                    .map(|f| (f.name.clone(), f.content.clone()))
                    .collect();
                Answer::Zip(archive::zip(&sources, &files_of(&out)))
            }
            Ok(out) => Answer::Json(
                StatusCode::OK,
                serde_json::to_string(&out).unwrap_or_default(),
            ),
            Err(e) => json_error(StatusCode::BAD_REQUEST, &e),
        }
    })
    .await
}

/// The generated files of an outcome as (name, content).
fn files_of(out: &Outcome) -> Vec<(String, String)> {
    out.files
        .iter()
        .map(|f| (f.name.clone(), f.content.clone()))
        .collect()
}

/// The form's fields, read before the job (reading is asynchronous).
#[derive(Default)]
struct FormFields {
    uploads: Vec<(String, Vec<u8>)>,
    text: Vec<(String, String)>,
}

async fn read_form(mut m: Multipart) -> Result<FormFields, (StatusCode, String)> {
    let mut f = FormFields::default();
    loop {
        let field = match m.next_field().await {
            Ok(Some(x)) => x,
            Ok(None) => break,
            Err(e) => return Err((e.status(), e.body_text())),
        };
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let data = field
            .bytes()
            .await
            .map_err(|e| (e.status(), e.body_text()))?;
        match file_name {
            Some(n) if name == "upload" => {
                // A file input left empty sends a part without a name.
                if !n.is_empty() {
                    f.uploads.push((n, data.to_vec()));
                }
            }
            _ => f
                .text
                .push((name, String::from_utf8_lossy(&data).into_owned())),
        }
    }
    Ok(f)
}

/// The form as an API request; the error is the sentence shown above the form.
fn form_request(f: FormFields) -> (ApiRequest, Option<String>) {
    let get = |k: &str| -> String {
        f.text
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let words =
        |k: &str| -> Vec<String> { get(k).split_whitespace().map(str::to_string).collect() };
    let mut req = ApiRequest {
        head: get("head"),
        vars: get("vars"),
        outvars: get("outvars"),
        modes: f
            .text
            .iter()
            .filter(|(n, _)| n == "mode")
            .map(|(_, v)| v.clone())
            .collect(),
        ..ApiRequest::default()
    };
    req.options.nooptim = words("nooptim");
    req.options.size = words("size");
    let mut error = None;
    let nb = get("nbdirsmax");
    if !nb.is_empty() {
        match nb.parse() {
            Ok(n) => req.options.nbdirsmax = Some(n),
            Err(_) => error = Some(format!("directions at most: {nb:?} is not a number")),
        }
    }
    // The pasted file: its text, verbatim but for the browser's CRLF line ends.
    let pasted = f
        .text
        .iter()
        .find(|(n, _)| n == "paste")
        .map(|(_, v)| v.replace("\r\n", "\n"))
        .unwrap_or_default();
    if !pasted.trim().is_empty() {
        let name = get("paste_name");
        if name.is_empty() {
            error.get_or_insert("give the pasted file a name (heat.f90, f.c)".into());
        }
        req.files.push(File {
            name,
            content: pasted,
        });
    }
    // Files a result page's form sends again (`page::form`), in their order.
    let kept_names = f.text.iter().filter(|(n, _)| n == "kept_name");
    let kept = f.text.iter().filter(|(n, _)| n == "kept");
    for ((_, name), (_, content)) in kept_names.zip(kept) {
        req.files.push(File {
            name: name.clone(),
            content: content.replace("\r\n", "\n"),
        });
    }
    for (name, bytes) in f.uploads {
        match String::from_utf8(bytes) {
            Ok(content) => req.files.push(File { name, content }),
            Err(_) => {
                error.get_or_insert(format!("{name}: not UTF-8 text"));
            }
        }
    }
    (req, error)
}

async fn form(State(st): State<AppState>, m: Multipart) -> Answer {
    let fields = match read_form(m).await {
        Ok(f) => f,
        Err((status, e)) => return Answer::Html(status, page::form_page(Some(&e), None)),
    };
    job(&st, move |run, area| {
        let (req, error) = form_request(fields);
        let bad = |e: &str| {
            Answer::Html(
                StatusCode::BAD_REQUEST,
                page::form_page(Some(e), Some(&req)),
            )
        };
        if let Some(e) = error.or_else(|| req.check().err()) {
            return bad(&e);
        }
        match api::differentiate(&req, run, area) {
            Ok(out) => Answer::Html(StatusCode::OK, page::served_result_page(&req, &out)),
            Err(e) => bad(&e),
        }
    })
    .await
}

/// A running server (tests, benches): its address, and a handle that stops it gracefully.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Stops accepting, lets the requests in flight finish, and waits.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn runtime(cfg: &Config) -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cfg.workers.max(1))
        .max_blocking_threads(cfg.workers.max(1))
        // A differentiation recurses as deep as the command's (a 240-operand expression
        // overflowed a default 2 MiB thread in the adjoint, which aborts the process).
        .thread_stack_size(radtap_pipeline::STACK_BYTES)
        .enable_all()
        .build()
}

/// Starts the service on its own threads and returns at once (`cfg.addr` with port 0 picks a
/// free port: see [`Server::addr`]).
pub fn start(cfg: Config) -> std::io::Result<Server> {
    let rt = runtime(&cfg)?;
    let listener = rt.block_on(tokio::net::TcpListener::bind(cfg.addr))?;
    let addr = listener.local_addr()?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        rt.block_on(accept_loop(listener, cfg, async move {
            let _ = rx.await;
        }));
    });
    Ok(Server {
        addr,
        stop: Some(tx),
        thread: Some(thread),
    })
}

/// `radtap serve`: listens on `cfg.addr`, prints `listening on http://ADDR`, and serves until
/// SIGINT or SIGTERM; then it finishes the requests in flight and returns.
pub fn serve(cfg: Config) -> std::io::Result<()> {
    let rt = runtime(&cfg)?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(cfg.addr).await?;
        println!("listening on http://{}", listener.local_addr()?);
        accept_loop(listener, cfg, stop_signal()).await;
        Ok(())
    })
}

/// Accepts connections until `shutdown`, then stops listening, lets every connection finish
/// its request and returns. One request per connection (no keep-alive), and each connection
/// lives at most the time limit plus 10 s: a client that never finishes its headers, or
/// sends nothing, is disconnected then (hyper's own header timeout needs a timer that
/// `axum::serve` does not set, so this loop replaces it).
async fn accept_loop(
    listener: tokio::net::TcpListener,
    cfg: Config,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let deadline = cfg.timeout + Duration::from_secs(10);
    let app = router(cfg);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut conns = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                // Out of file descriptors, a connection reset before accept: wait and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        while conns.try_join_next().is_some() {}
        let svc = hyper_util::service::TowerToHyperService::new(app.clone());
        let mut stop = stop_rx.clone();
        conns.spawn(async move {
            let mut b = hyper::server::conn::http1::Builder::new();
            b.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(deadline)
                .keep_alive(false);
            let conn = b.serve_connection(hyper_util::rt::TokioIo::new(stream), svc);
            let mut conn = std::pin::pin!(conn);
            let work = async {
                tokio::select! {
                    _ = conn.as_mut() => {}
                    _ = stop.changed() => {
                        conn.as_mut().graceful_shutdown();
                        let _ = conn.as_mut().await;
                    }
                }
            };
            let _ = tokio::time::timeout(deadline, work).await;
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    while conns.join_next().await.is_some() {}
}

async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
