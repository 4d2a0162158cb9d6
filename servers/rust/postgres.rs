//! postgres on Rust: hyper and tokio-postgres, DATABASE_POOL connections used in turn, each with its
//! prepared statement. Same bytes as the deno, node and bun servers.
//! GET /db: one random row of world; GET /queries?n=: n random rows, one query each, n clamped to 1..500.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use futures_util::future::try_join_all;
use hyper::StatusCode;
use tokio_postgres::{Client, NoTls, Statement};

use crate::{send, Handler};

struct Pool {
    connections: Vec<(Client, Statement)>,
    next: AtomicUsize,
}

impl Pool {
    async fn world(&self) -> Result<String, tokio_postgres::Error> {
        let (client, statement) = &self.connections[self.next.fetch_add(1, Ordering::Relaxed) % self.connections.len()];
        let id = 1 + (fastrand::u32(..10000) as i32);
        let row = client.query_one(statement, &[&id]).await?;
        Ok(format!("{{\"id\":{},\"randomNumber\":{}}}", row.get::<_, i32>(0), row.get::<_, i32>(1)))
    }
}

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} is not set"))
}

pub async fn handler() -> Result<Handler, String> {
    let mut config: tokio_postgres::Config = env("DATABASE_URL")?.parse().map_err(|e| format!("DATABASE_URL: {e}"))?;
    config.options(format!("-c search_path={}", env("DATABASE_SCHEMA")?));
    config.application_name(env("DATABASE_APP_NAME")?);
    let size: usize = env("DATABASE_POOL")?.parse().map_err(|e| format!("DATABASE_POOL: {e}"))?;
    let mut connections = Vec::with_capacity(size);
    for _ in 0..size {
        let (client, connection) = config.connect(NoTls).await.map_err(|e| e.to_string())?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                eprintln!("{error}");
            }
        });
        let statement = client
            .prepare("select id, randomnumber from world where id = $1")
            .await
            .map_err(|e| e.to_string())?;
        connections.push((client, statement));
    }
    let pool = Arc::new(Pool { connections, next: AtomicUsize::new(0) });
    Ok(Arc::new(move |request| {
        let pool = pool.clone();
        Box::pin(async move {
            let rows = match request.uri().path() {
                "/db" => pool.world().await,
                "/queries" => {
                    let n = count(request.uri().query().unwrap_or(""));
                    try_join_all((0..n).map(|_| pool.world())).await.map(|rows| format!("[{}]", rows.join(",")))
                }
                _ => return send(StatusCode::NOT_FOUND, "text/plain", "Not Found"),
            };
            match rows {
                Ok(body) => send(StatusCode::OK, "application/json", body),
                Err(error) => {
                    eprintln!("{error}");
                    send(StatusCode::INTERNAL_SERVER_ERROR, "text/plain", "Internal Server Error")
                }
            }
        })
    }))
}

/// `n` read as JavaScript's parseInt does (leading digits, "abc" is 1), clamped to 1..500.
fn count(query: &str) -> i64 {
    let value = form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "n").map(|(_, v)| v.into_owned());
    let value = value.unwrap_or_default();
    let value = value.trim_start();
    let sign = usize::from(value.starts_with(['-', '+']));
    let digits = value[sign..].bytes().take_while(u8::is_ascii_digit).count();
    value[..sign + digits].parse::<i64>().map_or(1, |n| n.clamp(1, 500))
}
