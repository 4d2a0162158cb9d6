//! uuid-file on Rust: hyper with tokio::fs write, read and remove_file. Same bytes as the deno,
//! node and bun servers: the four query parameters as JSON, null where one is missing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hyper::StatusCode;
use uuid::Uuid;

use crate::{send, Handler, InFlight};

pub fn handler() -> Result<Handler, String> {
    let dir = Arc::new(PathBuf::from(std::env::var("RTBENCH_DATA_DIR").map_err(|_| "RTBENCH_DATA_DIR is not set")?));
    Ok(Arc::new(move |request| {
        let dir = dir.clone();
        let query = request.uri().query().unwrap_or("").to_owned();
        // A task of its own: hyper drops a request whose client has gone, and a file must never be left half-done.
        let task = tokio::spawn(async move {
            let _busy = InFlight::new();
            round_trip(&dir, &query).await
        });
        Box::pin(async move {
            match task.await {
                Ok(Ok(body)) => send(StatusCode::OK, "application/json", body),
                _ => send(StatusCode::INTERNAL_SERVER_ERROR, "text/plain", "Internal Server Error"),
            }
        })
    }))
}

async fn round_trip(dir: &Path, query: &str) -> std::io::Result<Vec<u8>> {
    // The first value of each of q1..q4, decoded as URLSearchParams does ("+" is a space).
    let mut values: [Option<String>; 4] = Default::default();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let index = match key.as_ref() {
            "q1" => 0,
            "q2" => 1,
            "q3" => 2,
            "q4" => 3,
            _ => continue,
        };
        values[index].get_or_insert_with(|| value.into_owned());
    }
    // Keys in order, escaped as JSON.stringify escapes them.
    let mut content = String::from("{");
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            content.push(',');
        }
        content.push_str(&format!("\"q{}\":{}", i + 1, serde_json::to_string(value)?));
    }
    content.push('}');
    let file = dir.join(format!("{}.json", Uuid::new_v4()));
    tokio::fs::write(&file, content).await?;
    let body = tokio::fs::read(&file).await?;
    tokio::fs::remove_file(&file).await?;
    Ok(body)
}
