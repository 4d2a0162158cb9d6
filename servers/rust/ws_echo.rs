//! ws on Rust: hyper's upgrade and tokio-tungstenite. Echoes every message unchanged, text as
//! text, binary as binary.

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use hyper::{header, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::WebSocketStream;

use crate::{send, Handler};

pub fn handler() -> Handler {
    Arc::new(|mut request| {
        Box::pin(async move {
            let upgrade = request.headers().get(header::UPGRADE).is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
            let Some(key) = request.headers().get(header::SEC_WEBSOCKET_KEY).filter(|_| upgrade) else {
                return send(StatusCode::UPGRADE_REQUIRED, "text/plain", "Upgrade Required");
            };
            let accept = derive_accept_key(key.as_bytes());
            let upgrading = hyper::upgrade::on(&mut request);
            tokio::spawn(async move {
                let Ok(upgraded) = upgrading.await else { return };
                let mut socket = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, None).await;
                while let Some(Ok(message)) = socket.next().await {
                    if (message.is_text() || message.is_binary()) && socket.send(message).await.is_err() {
                        return;
                    }
                }
            });
            Response::builder()
                .status(StatusCode::SWITCHING_PROTOCOLS)
                .header(header::CONNECTION, "Upgrade")
                .header(header::UPGRADE, "websocket")
                .header(header::SEC_WEBSOCKET_ACCEPT, accept)
                .body(Default::default())
                .expect("a valid response")
        })
    })
}
