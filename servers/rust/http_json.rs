//! http-json on Rust: hyper. Same bytes as the deno, node and bun servers.

use std::sync::Arc;

use bytes::Bytes;
use hyper::StatusCode;

use crate::{send, Handler};

const HELLO: &[u8] = br#"{"message":"Hello, World!"}"#;

pub fn handler() -> Handler {
    Arc::new(|_request| Box::pin(async { send(StatusCode::OK, "application/json", Bytes::from_static(HELLO)) }))
}
