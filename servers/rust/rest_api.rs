//! rest-api on Rust: hyper and tokio-postgres (DATABASE_POOL connections used in turn, each with its prepared
//! statements), with the same rules as the JavaScript servers (servers/shared/users_http.mjs): input checks, error
//! bodies, and with REST_STACK=production the production stack (004's middleware: CORS headers on every response, a
//! preflight answered, a JWT bearer token verified on every other request). Same bytes as the deno, node and bun
//! servers: created_at is written by PostgreSQL as Date.toJSON writes it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use bytes::Bytes;
use hmac::{Hmac, KeyInit, Mac};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{header, Method, Request, Response, StatusCode};
use serde_json::Value;
use sha2::Sha256;
use tokio_postgres::{Client, NoTls, Row, Statement};

use crate::{Handler, Reply};

/// The columns every query returns, created_at as `2026-01-01T00:01:00.000Z`.
const COLUMNS: &str = r#"id, name, email, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#;

const NOT_FOUND: &str = r#"{"error":"not found"}"#;
const INVALID: &str = r#"{"error":"invalid user"}"#;
const UNAUTHORIZED: &str = r#"{"error":"unauthorized"}"#;

struct Statements {
    list: Statement,
    get: Statement,
    insert: Statement,
    update: Statement,
    delete: Statement,
}

struct Api {
    connections: Vec<(Client, Statements)>,
    next: AtomicUsize,
    /// With the production stack: the allowed origin and the JWT secret.
    stack: Option<(String, Vec<u8>)>,
}

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} is not set"))
}

async fn prepare(client: &Client) -> Result<Statements, tokio_postgres::Error> {
    Ok(Statements {
        list: client.prepare(&format!("select {COLUMNS} from users order by id limit $1 offset $2")).await?,
        get: client.prepare(&format!("select {COLUMNS} from users where id = $1")).await?,
        insert: client.prepare(&format!("insert into users (name, email) values ($1, $2) returning {COLUMNS}")).await?,
        update: client
            .prepare(&format!("update users set name = $2, email = $3 where id = $1 returning {COLUMNS}"))
            .await?,
        delete: client.prepare("delete from users where id = $1").await?,
    })
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
        let statements = prepare(&client).await.map_err(|e| e.to_string())?;
        connections.push((client, statements));
    }
    let stack = (std::env::var("REST_STACK").as_deref() == Ok("production"))
        .then(|| (std::env::var("CORS_ORIGIN").unwrap_or_default(), std::env::var("JWT_SECRET").unwrap_or_default().into_bytes()));
    let api = Arc::new(Api { connections, next: AtomicUsize::new(0), stack });
    Ok(Arc::new(move |request| {
        let api = api.clone();
        Box::pin(async move { api.answer(request).await })
    }))
}

/// A response with the stack's CORS headers; a JSON body unless it is a 204.
fn reply(stack: &Option<(String, Vec<u8>)>, status: StatusCode, body: Option<String>, preflight: bool) -> Reply {
    let mut builder = Response::builder().status(status);
    if let Some((origin, _)) = stack {
        builder = builder.header("access-control-allow-origin", origin.as_str()).header(header::VARY, "Origin");
        if preflight {
            builder = builder
                .header("access-control-allow-methods", "GET, POST, PUT, DELETE")
                .header("access-control-allow-headers", "authorization, content-type")
                .header("access-control-max-age", "600");
        }
    }
    let body = match body {
        Some(text) => {
            builder = builder.header(header::CONTENT_TYPE, "application/json").header(header::CONTENT_LENGTH, text.len());
            Bytes::from(text)
        }
        None => Bytes::new(),
    };
    builder.body(Full::new(body)).expect("a valid response")
}

impl Api {
    async fn answer(&self, request: Request<Incoming>) -> Reply {
        if let Some((_, secret)) = &self.stack {
            if request.method() == Method::OPTIONS {
                return reply(&self.stack, StatusCode::NO_CONTENT, None, true);
            }
            let authorization = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
            let token = authorization.and_then(|a| a.strip_prefix("Bearer ")).filter(|t| !t.is_empty());
            if !token.is_some_and(|t| valid_jwt(t, secret)) {
                return reply(&self.stack, StatusCode::UNAUTHORIZED, Some(UNAUTHORIZED.into()), false);
            }
        }
        match self.route(request).await {
            Ok((status, body)) => reply(&self.stack, status, body, false),
            Err(error) => {
                eprintln!("{error}");
                reply(&self.stack, StatusCode::INTERNAL_SERVER_ERROR, Some(r#"{"error":"internal"}"#.into()), false)
            }
        }
    }

    async fn route(&self, request: Request<Incoming>) -> Result<(StatusCode, Option<String>), tokio_postgres::Error> {
        let (client, statements) = &self.connections[self.next.fetch_add(1, Ordering::Relaxed) % self.connections.len()];
        let not_found = Ok((StatusCode::NOT_FOUND, Some(NOT_FOUND.to_string())));
        let invalid = Ok((StatusCode::BAD_REQUEST, Some(INVALID.to_string())));
        let method = request.method().clone();
        let path = request.uri().path().to_string();
        if path == "/users" && method == Method::GET {
            let query = request.uri().query().unwrap_or("").to_string();
            let first = |key: &str| form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == key).map(|(_, v)| v.into_owned());
            let page = first("page").and_then(|p| parse_int_js(&p)).filter(|p| *p >= 1).unwrap_or(1);
            let limit = first("limit").and_then(|l| parse_int_js(&l)).map_or(10, |l| l.clamp(1, 100));
            let rows = client.query(&statements.list, &[&limit, &((page - 1) * limit)]).await?;
            let users: Vec<String> = rows.iter().map(user_json).collect();
            return Ok((StatusCode::OK, Some(format!(r#"{{"page":{page},"limit":{limit},"users":[{}]}}"#, users.join(",")))));
        }
        if path == "/users" && method == Method::POST {
            let Some((name, email)) = valid_user(request).await else { return invalid };
            let row = client.query_one(&statements.insert, &[&name, &email]).await?;
            return Ok((StatusCode::CREATED, Some(user_json(&row))));
        }
        let Some(rest) = path.strip_prefix("/users/").filter(|r| !r.is_empty() && !r.contains('/')) else {
            return not_found;
        };
        let id = id_of(&percent_decoded(rest));
        let found = |row: Option<Row>| match row {
            Some(row) => Ok((StatusCode::OK, Some(user_json(&row)))),
            None => Ok((StatusCode::NOT_FOUND, Some(NOT_FOUND.to_string()))),
        };
        match method {
            Method::GET => match id {
                Some(id) => found(client.query_opt(&statements.get, &[&id]).await?),
                None => not_found,
            },
            Method::PUT => {
                let Some((name, email)) = valid_user(request).await else { return invalid };
                match id {
                    Some(id) => found(client.query_opt(&statements.update, &[&id, &name, &email]).await?),
                    None => not_found,
                }
            }
            Method::DELETE => match id {
                Some(id) if client.execute(&statements.delete, &[&id]).await? == 1 => Ok((StatusCode::NO_CONTENT, None)),
                _ => not_found,
            },
            _ => not_found,
        }
    }
}

/// A user row as every server writes it (key order included; strings escaped as JSON.stringify does).
fn user_json(row: &Row) -> String {
    let text = |i: usize| serde_json::to_string(&row.get::<_, String>(i)).expect("a string");
    format!(r#"{{"id":{},"name":{},"email":{},"createdAt":{}}}"#, row.get::<_, i32>(0), text(1), text(2), text(3))
}

/// `{name, email}` from the body, as users_http.mjs's validUser reads it; None when invalid.
async fn valid_user(request: Request<Incoming>) -> Option<(String, String)> {
    let bytes = request.into_body().collect().await.ok()?.to_bytes();
    let body: Value = serde_json::from_slice(&bytes).ok()?;
    let name = body.get("name")?.as_str()?.to_string();
    let email = body.get("email")?.as_str()?.to_string();
    // JavaScript measures strings in UTF-16 code units.
    let name_length = name.encode_utf16().count();
    if name_length == 0 || name_length > 100 || email.encode_utf16().count() > 200 || !valid_email(&email) {
        return None;
    }
    Some((name, email))
}

/// JavaScript's `\s`.
fn js_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2028}' | '\u{2029}'
        | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}' | '\u{2000}'..='\u{200a}')
}

/// `/^[^@\s]+@[^@\s]+$/`.
fn valid_email(email: &str) -> bool {
    let mut parts = email.split('@');
    let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else { return false };
    !local.is_empty() && !domain.is_empty() && !email.chars().any(js_space)
}

/// `:id` as the JavaScript servers read it: 1 to 10 digits, no leading zero; ids beyond PostgreSQL's integer cannot
/// exist.
fn id_of(text: &str) -> Option<i32> {
    let digits = text.len() <= 10 && text.starts_with(|c: char| ('1'..='9').contains(&c)) && text.bytes().all(|b| b.is_ascii_digit());
    if !digits {
        return None;
    }
    text.parse::<i64>().ok().and_then(|n| i32::try_from(n).ok())
}

/// A path segment with its %XX escapes decoded, as decodeURIComponent does (an invalid escape is left as it is).
fn percent_decoded(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A number read as JavaScript's parseInt does: leading whitespace, a sign, the leading digits.
fn parse_int_js(value: &str) -> Option<i64> {
    let value = value.trim_start();
    let sign = usize::from(value.starts_with(['-', '+']));
    let digits = value[sign..].bytes().take_while(u8::is_ascii_digit).count();
    value[..sign + digits].parse::<i64>().ok()
}

/// An HS256 token checked as jose's jwtVerify does for rtbench's tokens: the algorithm, the signature, the issuer
/// `rtbench`, the audience `rest-api`, and the expiry and not-before times when present.
fn valid_jwt(token: &str, secret: &[u8]) -> bool {
    let parts: Vec<&str> = token.split('.').collect();
    let [header, payload, signature] = parts[..] else { return false };
    let decode = |segment: &str| URL_SAFE_NO_PAD.decode(segment).ok().and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    let (Some(header_json), Some(claims)) = (decode(header), decode(payload)) else { return false };
    if header_json.get("alg").and_then(Value::as_str) != Some("HS256") {
        return false;
    }
    let Ok(signature) = URL_SAFE_NO_PAD.decode(signature) else { return false };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("any key length");
    mac.update(format!("{header}.{payload}").as_bytes());
    if mac.verify_slice(&signature).is_err() {
        return false;
    }
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64().floor()).unwrap_or(0.0);
    let time = |name: &str| claims.get(name).map(|v| v.as_f64());
    if matches!(time("exp"), Some(None)) || time("exp").flatten().is_some_and(|exp| now >= exp) {
        return false;
    }
    if matches!(time("nbf"), Some(None)) || time("nbf").flatten().is_some_and(|nbf| now < nbf) {
        return false;
    }
    if claims.get("iss").and_then(Value::as_str) != Some("rtbench") {
        return false;
    }
    match claims.get("aud") {
        Some(Value::String(aud)) => aud == "rest-api",
        Some(Value::Array(auds)) => auds.iter().any(|a| a.as_str() == Some("rest-api")),
        _ => false,
    }
}
