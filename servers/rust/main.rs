//! rtbench's Rust servers: one program, one server per workload, chosen by its first argument
//! (`rtbench-servers http_json`). Each listens on $HOST:$PORT with hyper on tokio and answers with
//! the same bytes as the deno, node and bun servers of its workload.

mod http_json;
mod postgres;
mod rest_api;
mod uuid_file;
mod ws_echo;

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{header, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::signal::unix::{signal, SignalKind};

/// A whole response, body included.
pub type Reply = Response<Full<Bytes>>;

/// One workload's server: a request in, a response out.
pub type Handler = Arc<dyn Fn(Request<Incoming>) -> Pin<Box<dyn Future<Output = Reply> + Send>> + Send + Sync>;

/// Requests being answered; on SIGTERM the server waits for them (uuid-file must not leave a file behind).
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// Counts one request as in flight for as long as it lives, however it ends (a closed connection drops it).
pub struct InFlight;

impl InFlight {
    pub fn new() -> Self {
        IN_FLIGHT.fetch_add(1, Ordering::AcqRel);
        InFlight
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response with an exact content-type and content-length, as the other runtimes send.
pub fn send(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Reply {
    let body = body.into();
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::CONTENT_LENGTH, body.len())
        .body(Full::new(body))
        .expect("a valid response")
}

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    // RTBENCH_WORKERS sets tokio's worker threads; without it tokio takes one per CPU the process may use.
    if let Some(workers) = std::env::var("RTBENCH_WORKERS").ok().and_then(|v| v.parse().ok()) {
        builder.worker_threads(workers);
    }
    let runtime = builder.build().expect("a tokio runtime");
    std::process::exit(runtime.block_on(serve(&name)));
}

async fn handler(name: &str) -> Result<Handler, String> {
    match name {
        "http_json" => Ok(http_json::handler()),
        "uuid_file" => uuid_file::handler(),
        "postgres" => postgres::handler().await,
        "rest_api" => rest_api::handler().await,
        "ws_echo" => Ok(ws_echo::handler()),
        _ => Err("usage: rtbench-servers http_json|uuid_file|postgres|rest_api|ws_echo".into()),
    }
}

async fn serve(name: &str) -> i32 {
    let handler = match handler(name).await {
        Ok(handler) => handler,
        Err(why) => {
            eprintln!("Cannot start server: {why}");
            return 2;
        }
    };
    let host = std::env::var("HOST").unwrap_or_else(|_| "127.0.0.1".into());
    let port: u16 = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(3000);
    let listener = match TcpListener::bind((host.as_str(), port)).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("Cannot start server: {error}");
            return 1;
        }
    };
    // rtbench reads this line to check how many CPUs the server runs on.
    println!("rtbench: workers {}", tokio::runtime::Handle::current().metrics().num_workers());
    let mut terminate = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                tokio::spawn(connection(stream, handler.clone()));
            }
            _ = terminate.recv() => break,
        }
    }
    // On stop, finish the requests in flight so that none leaves its file behind.
    let deadline = Instant::now() + Duration::from_secs(5);
    while IN_FLIGHT.load(Ordering::Acquire) > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    0
}

async fn connection(stream: tokio::net::TcpStream, handler: Handler) {
    let service = service_fn(move |request| {
        let handler = handler.clone();
        async move {
            let _busy = InFlight::new();
            Ok::<_, Infallible>(handler(request).await)
        }
    });
    let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).with_upgrades().await;
}
