// The rest-api workload's HTTP rules, the same for every data layer, runtime and framework: input checks, error
// bodies, and the production stack (REST_STACK=production).
import { jwtVerify } from "jose";

const env = globalThis.process?.env ?? globalThis.Deno.env.toObject();

/** `:id` as a positive integer, or null (then the answer is 404). */
export function idOf(text) {
  return /^[1-9][0-9]{0,9}$/.test(String(text)) ? Number(text) : null;
}

/** `{name, email}` when the body holds a valid user, else null (then the answer is 400). */
export function validUser(body) {
  if (body === null || typeof body !== "object") return null;
  const { name, email } = body;
  if (typeof name !== "string" || name.length === 0 || name.length > 100) return null;
  if (typeof email !== "string" || email.length > 200 || !/^[^@\s]+@[^@\s]+$/.test(email)) return null;
  return { name, email };
}

/** `page` from 1, `limit` 1..100 (default 10); anything unreadable takes the default. */
export function pageOf(page, limit) {
  const p = Number.parseInt(page ?? "", 10);
  const l = Number.parseInt(limit ?? "", 10);
  return { page: Number.isNaN(p) || p < 1 ? 1 : p, limit: Number.isNaN(l) ? 10 : Math.min(100, Math.max(1, l)) };
}

/** The bodies of the error answers. */
export const NOT_FOUND = { error: "not found" };
export const INVALID = { error: "invalid user" };

// The production stack (REST_STACK=production), the same under every framework: CORS headers on every response, a
// preflight answered, and a JWT bearer token verified with jose on every other request before any route runs.
const STACK = env.REST_STACK === "production";
const SECRET = new TextEncoder().encode(env.JWT_SECRET ?? "");

/** Headers every response carries: CORS for the one allowed origin, or none without the stack. */
export const STACK_HEADERS = STACK ? { "access-control-allow-origin": env.CORS_ORIGIN, "vary": "Origin" } : {};

const PREFLIGHT = {
  "access-control-allow-methods": "GET, POST, PUT, DELETE",
  "access-control-allow-headers": "authorization, content-type",
  "access-control-max-age": "600",
};

/** The 401 body. */
export const UNAUTHORIZED = { error: "unauthorized" };

/**
 * What the stack answers before routing: a preflight (204 with the CORS headers), a request without a valid
 * bearer token (401, `UNAUTHORIZED`), or null to go on.
 */
export async function gate(method, authorization) {
  if (!STACK) return null;
  if (method === "OPTIONS") return { status: 204, headers: PREFLIGHT };
  const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
  try {
    if (token) {
      await jwtVerify(token, SECRET, { algorithms: ["HS256"], issuer: "rtbench", audience: "rest-api" });
      return null;
    }
  } catch {
    // A bad signature, an expired token, the wrong issuer: all 401.
  }
  return { status: 401, headers: {}, body: UNAUTHORIZED };
}
