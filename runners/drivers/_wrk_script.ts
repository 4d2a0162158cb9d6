/**
 * The Lua scripts rtbench hands to wrk: the requests to send, an optional
 * per-response check, and a `done()` that prints one JSON line with the
 * counts and the whole latency histogram (wrk keeps microseconds).
 *
 * @module
 */

import type { HttpRequestSpec } from "../../workloads/mod.ts";

/** The prefix of the line `done()` prints. */
export const RESULT_MARKER = "RTBENCH_RESULT ";

const encoder = new TextEncoder();

/** A Lua string literal for any text: printable ASCII as is, every other byte as a decimal escape. */
export function luaString(text: string): string {
  let out = '"';
  for (const byte of encoder.encode(text)) {
    if (byte === 0x22 || byte === 0x5c) out += "\\" + String.fromCharCode(byte);
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += "\\" + byte;
  }
  return out + '"';
}

function luaHeaders(headers: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(headers ?? {});
  return `{ ${entries.map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`).join(", ")} }`;
}

function luaSpec(spec: HttpRequestSpec): string {
  const e = spec.expect;
  return `{ method = ${luaString(spec.method ?? "GET")}, path = ${luaString(spec.path)}, headers = ${
    luaHeaders(spec.headers)
  }, body = ${spec.body === undefined ? "nil" : luaString(spec.body)}, status = ${e.status}, ctype = ${
    luaString(e.contentType)
  }, expected = ${e.body === undefined ? "nil" : luaString(e.body)} }`;
}

/** Options of {@linkcode wrkScript}. */
export interface WrkScriptOptions {
  /** Requests to cycle through. */
  readonly requests: readonly HttpRequestSpec[];
  /** Requests written back to back per connection. */
  readonly pipelining: number;
  /** Whether to check every response in Lua (costs throughput: wrk then parses every header and body). */
  readonly checkResponses: boolean;
}

/** The requests: wrk's own for one request without pipelining, else batches of `depth` built once, in rotation. */
function requestLines(single: boolean, depth: number): string[] {
  if (single) {
    return [
      "wrk.method = specs[1].method",
      "wrk.path = specs[1].path",
      "wrk.body = specs[1].body",
      "for k, v in pairs(specs[1].headers) do wrk.headers[k] = v end",
    ];
  }
  // Built at load time: wrk calls request() once on its main state to count the pipeline depth.
  return [
    `local depth = ${depth}`,
    // wrk.format takes Host from wrk.headers, which wrk.init fills only after this script has loaded;
    // without it Node and Bun answer 400 (HTTP/1.1 requires Host), so prebuilt requests carry their own.
    "local host = wrk.host:find(':') and ('[' .. wrk.host .. ']') or wrk.host",
    "if wrk.port then host = host .. ':' .. wrk.port end",
    "for _, s in ipairs(specs) do",
    "  if not s.headers['Host'] and not s.headers['host'] then s.headers['Host'] = host end",
    "end",
    "local batches = {}",
    "for i = 1, #specs do",
    "  local parts = {}",
    "  for k = 0, depth - 1 do",
    "    local s = specs[((i - 1) * depth + k) % #specs + 1]",
    "    parts[#parts + 1] = wrk.format(s.method, s.path, s.headers, s.body)",
    "  end",
    "  batches[i] = table.concat(parts)",
    "end",
    "local cursor = 0",
    "function request()",
    "  cursor = cursor % #batches + 1",
    "  return batches[cursor]",
    "end",
  ];
}

// wrk does not say which request a response answers, so a response must match one of the specs.
const CHECK_LINES = [
  "local function header(headers, name)",
  "  for k, v in pairs(headers) do if string.lower(k) == name then return v end end",
  "  return nil",
  "end",
  "function response(status, headers, body)",
  "  checked = checked + 1",
  "  if status >= 400 then return end -- wrk counts these itself",
  '  local ctype = header(headers, "content-type")',
  "  for _, s in ipairs(specs) do",
  "    if status == s.status and ctype == s.ctype and (s.expected == nil or body == s.expected) then return end",
  "  end",
  "  mismatches = mismatches + 1",
  '  if first == "" then',
  '    first = string.format("status %d, content-type %s, body %s", status, tostring(ctype), string.sub(body, 1, 120))',
  "  end",
  "end",
];

/**
 * Above this many steps (distinct latencies × the microseconds between the lowest and the highest), the histogram is
 * read as {@linkcode LATENCY_QUANTILES} quantiles instead of value by value: wrk's `latency(i)` scans its array from
 * the lowest latency on every call, so reading every distinct value costs their number times the spread. 60,000
 * responses spread over 3 s (a server that makes one request in a hundred wait) took done() 38 s, past the guard
 * on wrk's run; 10⁹ such steps take about a second.
 */
export const EXACT_HISTOGRAM_STEPS = 1e9;

/**
 * Quantiles read when the histogram is too spread out to read whole: 600 evenly spaced up to the 90th percentile (a
 * step of 0.15%), 399 log-spaced from there towards 1 − 10⁻⁵, and the highest latency; each weighted by the share of
 * the responses it stands for.
 */
export const LATENCY_QUANTILES = 1000;

/** Of {@linkcode LATENCY_QUANTILES}, those evenly spaced up to the 90th percentile. */
const BODY_QUANTILES = 600;

// The histogram as `value:count` pairs, and 0 when every distinct value was read (else the quantiles read).
const HISTOGRAM_LINES = [
  "local function histogram(latency, requests)",
  "  local n = #latency",
  "  local out = {}",
  `  if n * (latency.max - latency.min + 1) <= ${EXACT_HISTOGRAM_STEPS} then`,
  "    for i = 1, n do",
  "      local v, count = latency(i)",
  '      out[#out + 1] = string.format("%d:%d", v, count)',
  "    end",
  '    return table.concat(out, ","), 0',
  "  end",
  "  local before = 0",
  `  for i = 1, ${LATENCY_QUANTILES} do`,
  `    local q = i == ${LATENCY_QUANTILES} and 1 or i <= ${BODY_QUANTILES} and 0.9 * i / ${BODY_QUANTILES}`,
  `      or 1 - 10 ^ (-1 - 4 * (i - ${BODY_QUANTILES}) / ${LATENCY_QUANTILES - BODY_QUANTILES})`,
  "    -- Rounded on the running total, so that the shares add up (a quantile for less than one response is left out).",
  "    local count = math.floor(q * requests + 0.5) - math.floor(before * requests + 0.5)",
  "    if q == 1 then",
  '      out[#out + 1] = string.format("%d:%d", latency.max, math.max(1, count))',
  "    elseif count > 0 then",
  '      out[#out + 1] = string.format("%d:%d", latency:percentile(100 * q), count)',
  "    end",
  "    before = q",
  "  end",
  `  return table.concat(out, ","), ${LATENCY_QUANTILES}`,
  "end",
];

// The summary, the threads' counts and the latency histogram, as one JSON line after the marker.
const DONE_LINES = [
  ...HISTOGRAM_LINES,
  "local function json(s)",
  "  return '\"' .. string.gsub(s, '[%c\"\\\\]', function(c) return string.format('\\\\u%04x', string.byte(c)) end) .. '\"'",
  "end",
  "function done(summary, latency, requests)",
  '  local m, c, f = 0, 0, ""',
  "  for _, t in ipairs(threads) do",
  '    m = m + t:get("mismatches")',
  '    c = c + t:get("checked")',
  '    if f == "" then f = t:get("first") end',
  "  end",
  "  local hist, quantiles = histogram(latency, summary.requests)",
  "  local e = summary.errors",
  "  io.write(string.format(",
  `    '\\n${RESULT_MARKER}{"durationUs":%d,"requests":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"checked":%d,"mismatches":%d,"firstMismatch":%s,"latency":"%s","latencyQuantiles":%d}\\n',`,
  "    summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,",
  "    c, m, json(f), hist, quantiles))",
  "end",
];

/**
 * Builds the script. One request without pipelining stays static (wrk builds
 * it once, exactly as `wrk <url>` does); several requests or pipelining go
 * through a `request()` that hands out prebuilt batches.
 *
 * @example
 * ```ts
 * import { wrkScript } from "./_wrk_script.ts";
 * const lua = wrkScript({
 *   requests: [{ path: "/", expect: { status: 200, contentType: "text/plain" } }],
 *   pipelining: 1,
 *   checkResponses: false,
 * });
 * console.log(lua.includes("function done")); // true
 * ```
 */
export function wrkScript(options: WrkScriptOptions): string {
  return [
    "-- Written by rtbench for one wrk run.",
    `local specs = { ${options.requests.map(luaSpec).join(",\n  ")} }`,
    ...requestLines(options.requests.length === 1 && options.pipelining === 1, options.pipelining),
    "mismatches = 0",
    "checked = 0",
    'first = ""',
    "local threads = {}",
    "function setup(thread) table.insert(threads, thread) end",
    ...(options.checkResponses ? CHECK_LINES : []),
    ...DONE_LINES,
  ].join("\n") + "\n";
}
