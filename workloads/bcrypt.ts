/**
 * `bcrypt`: `POST /hash` with `{"password": "..."}` answered with
 * `{"hash": "..."}`, bcrypt at a fixed cost. CPU-bound work where the
 * implementation and the thread it runs on matter more than the HTTP stack.
 *
 * Verification, before any load: every hash a record's first server returns
 * verifies with bcryptjs in the harness against the password sent, and that
 * server verifies (`POST /verify`) a bcryptjs hash made by the harness and the
 * hashes of every runtime measured before it in the same variant, and rejects a
 * wrong password. The fresh server of each later run (the same code in a new
 * process) has the first hash it returns verified with bcryptjs.
 *
 * @module
 */

import { serverFile } from "../adapters/mod.ts";
import { pinnedVersion } from "../runners/platform/mod.ts";
import bcryptjs from "bcryptjs";
import { randomText, seededRandom } from "./_random.ts";
import type {
  Check,
  Fact,
  HttpRequestSpec,
  HttpWorkload,
  SampledResponse,
  ServerSource,
  Skip,
  VerifyContext,
  WorkloadContext,
  WorkloadSession,
} from "./types.ts";

/** The bcryptjs version every runtime's `bcryptjs` variant runs (and the harness verifies with). */
export const BCRYPTJS_VERSION: string = pinnedVersion("bcryptjs");
/** The bcrypt native addon version the `native` variant loads on Node.js and Deno. */
export const BCRYPT_ADDON_VERSION = "6.0.0";

const NATIVE: Record<string, { implementation: string; hashingThread: string; threadPool: string }> = {
  deno: {
    implementation: `bcrypt ${BCRYPT_ADDON_VERSION} (C++ Node-API addon, loaded by Deno's Node-API support)`,
    hashingThread: "pool",
    threadPool: "Deno's blocking-task pool, where it runs Node-API async work",
  },
  node: {
    implementation: `bcrypt ${BCRYPT_ADDON_VERSION} (C++ Node-API addon)`,
    hashingThread: "pool",
    threadPool: "libuv thread pool (UV_THREADPOOL_SIZE, default 4)",
  },
  bun: {
    implementation: "Bun.password.hash with algorithm bcrypt (Bun's native code)",
    hashingThread: "pool",
    threadPool: "Bun's thread pool, where Bun.password's async functions run",
  },
};

// Mixed-case letters, digits, punctuation and multi-byte UTF-8. At most 20
// code points, so at most 60 bytes: bcrypt reads 72, and Bun.password hashes
// longer passwords with SHA-512 first, which would make hashes incompatible.
const ALPHABET =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ äöüß€";
const REQUESTS = 64;
const SEED = 0x62637279;
const COST_OPTION = "bcrypt-cost";

/** A regular expression source matching `{"hash":"..."}` with a bcrypt `$2b$` hash at `cost`. */
function hashBodyPattern(cost: number): string {
  return `\\{"hash":"\\$2b\\$${String(cost).padStart(2, "0")}\\$[./A-Za-z0-9]{53}"\\}`;
}

function hashRequest(password: string, cost: number): HttpRequestSpec {
  return {
    method: "POST",
    path: "/hash",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password }),
    expect: { status: 200, contentType: "application/json", bodyPattern: hashBodyPattern(cost) },
  };
}

/**
 * Under load, the first hash of each engine process and every 10th after it are verified against their password: a
 * run at bcrypt's defaults can stand at about 25 responses (see `MIN_COUNTED_OVER_SPAN`), and one in 10 still samples
 * its measured window, at about 85 ms of the harness's time per sample after the run.
 */
export const SAMPLE_EVERY = 10;

/** Each sampled hash verified with bcryptjs against the password of the request it answered. */
async function checkSampledHashes(samples: readonly SampledResponse[]): Promise<Check[]> {
  const results = await Promise.all(samples.map(async (s) => {
    const password = JSON.parse(s.request.body ?? "{}").password;
    const hash = hashIn(s.body);
    return typeof password === "string" && hash !== null && await bcryptjs.compare(password, hash);
  }));
  const failed = results.filter((ok) => !ok).length;
  return [{
    name: `hashes sampled under load (the first of each engine process, then one in ${SAMPLE_EVERY}) verify`,
    passed: failed === 0 && samples.length > 0,
    expected: `${samples.length} of ${samples.length}`,
    actual: `${samples.length - failed} of ${samples.length}`,
  }];
}

function costOf(ctx: WorkloadContext): number {
  return Number(ctx.options[COST_OPTION] ?? 10);
}

function hashIn(body: string): string | null {
  try {
    const hash = JSON.parse(body)?.hash;
    return typeof hash === "string" ? hash : null;
  } catch {
    return null;
  }
}

/** Asks the server whether `password` matches `hash`; the server's answer, or what it sent instead. */
async function verifyOn(ctx: VerifyContext, password: string, hash: string): Promise<Fact> {
  const x = await ctx.send({
    method: "POST",
    path: "/verify",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password, hash }),
    expect: { status: 200, contentType: "application/json" },
  });
  if (x.status !== 200) return `HTTP ${x.status}`;
  try {
    const valid = JSON.parse(x.body)?.valid;
    return typeof valid === "boolean" ? valid : x.body.slice(0, 200);
  } catch {
    return x.body.slice(0, 200);
  }
}

interface Sample {
  readonly password: string;
  readonly hash: string;
}

/**
 * The bcrypt workload. Variants: `bcryptjs` (the same pure-JS library on every
 * runtime, the fair default) and `native` (the bcrypt Node-API addon on Node.js
 * and Deno, `Bun.password` on Bun; a runtime that cannot load it is skipped
 * with the reason). Records carry the facts `implementation`, `hashingThread`
 * (`main` or `pool`, with `threadPool` naming the pool) and `bcryptCost`, and
 * the cross-verification checks. Where the server gets more than one CPU, raise
 * `--connections` to at least that many so a thread pool can use them.
 *
 * @example The default cost and the variants
 * ```ts
 * import { bcrypt } from "./bcrypt.ts";
 * console.log(bcrypt.options?.[0].default, bcrypt.variants.map((v) => v.name)); // 10 ["bcryptjs", "native"]
 * ```
 */
export const bcrypt: HttpWorkload = {
  name: "bcrypt",
  description: 'POST /hash {"password"} answered with {"hash"}: bcrypt at a fixed cost',
  kind: "http",
  variants: [
    { name: "bcryptjs", description: `bcryptjs ${BCRYPTJS_VERSION} (pure JavaScript) on every runtime` },
    { name: "native", description: "the bcrypt addon on Node.js and Deno, Bun.password on Bun" },
  ],
  // One hash takes tens of milliseconds. With many connections the main-thread
  // library interleaves them all and answers in bursts, so a few-second window
  // counts whole bursts or none; two connections keep one server CPU busy and
  // the count fine-grained. A generous timeout leaves room for higher costs. A window of 2 s, not the quick profile's
  // 1 s, counts the 20 hashes a run needs to stand over its spans (docs/method.md, "Slow workloads"); native code and
  // a hash loop the JIT compiles within its first hash need no more than 0.25 s of warm-up.
  defaults: { connections: 2, requestTimeoutSec: 30, durationSec: 2, warmupSec: 0.25 },
  options: [{
    name: COST_OPTION,
    description: "bcrypt cost (log2 of the rounds)",
    type: "number",
    default: 10,
    min: 4,
    max: 31,
    integer: true,
  }],
  dependencies: { bcryptjs: BCRYPTJS_VERSION },
  optionalDependencies: { bcrypt: BCRYPT_ADDON_VERSION },
  server(runtime: string, variant: string): ServerSource | Skip {
    const entry = serverFile(runtime, "bcrypt");
    if (!entry) return { skip: `no bcrypt server for ${runtime}` };
    const facts = variant === "native"
      ? NATIVE[runtime]
      : { implementation: `bcryptjs ${BCRYPTJS_VERSION} (pure JavaScript)`, hashingThread: "main" };
    return { entry, args: [variant], facts };
  },
  traffic(ctx: WorkloadContext) {
    const random = seededRandom(SEED);
    const requests: HttpRequestSpec[] = [];
    for (let i = 0; i < REQUESTS; i++) requests.push(hashRequest(randomText(random, ALPHABET, 8, 20), costOf(ctx)));
    // Each hash costs tens of milliseconds on the server and again in the harness, and the 64 differ only in
    // the password: three verified (and compared) stand for them; the load checks every hash's form anyway, and
    // the first hash of each engine process and every 10th after it are verified against their passwords.
    return { requests, verified: 3, sampled: { every: SAMPLE_EVERY, check: checkSampledHashes } };
  },
  async setup(ctx: WorkloadContext): Promise<WorkloadSession> {
    const cost = costOf(ctx);
    // Hashes that every later server must verify: one from the harness, then
    // one from each runtime whose hashes passed.
    const samples = new Map<string, Sample>();
    const reference = "rtbench reference pässwörd";
    samples.set("harness bcryptjs", { password: reference, hash: await bcryptjs.hash(reference, cost) });
    return {
      env: { RTBENCH_BCRYPT_COST: String(cost) },
      facts: { bcryptCost: cost },
      async verify(v: VerifyContext): Promise<Check[]> {
        const checks: Check[] = [];
        let own: Sample | undefined;
        // A later run's server is the same code in a new process: one hash shows it answers as the first did, and
        // spares the harness and server a dozen bcrypt operations (tens of milliseconds each) per run.
        const exchanges = v.run === 0 ? v.exchanges : v.exchanges.slice(0, 1);
        for (const [i, x] of exchanges.entries()) {
          const password = JSON.parse(x.request.body ?? "{}").password;
          const hash = hashIn(x.body);
          const valid = typeof password === "string" && hash !== null && await bcryptjs.compare(password, hash);
          checks.push({
            name: `${v.runtime} hash ${i + 1} verifies with bcryptjs`,
            passed: valid,
            expected: true,
            actual: valid,
          });
          if (valid && hash) own ??= { password, hash };
        }
        if (v.run > 0) return checks;
        for (const [source, sample] of samples) {
          if (source === v.runtime) continue;
          const valid = await verifyOn(v, sample.password, sample.hash);
          checks.push({
            name: `${source} hash verifies on ${v.runtime}`,
            passed: valid === true,
            expected: true,
            actual: valid,
          });
        }
        const wrong = await verifyOn(v, `${reference}!`, samples.get("harness bcryptjs")!.hash);
        checks.push({
          name: `wrong password rejected by ${v.runtime}`,
          passed: wrong === false,
          expected: false,
          actual: wrong,
        });
        if (own && !samples.has(v.runtime)) samples.set(v.runtime, own);
        return checks;
      },
    };
  },
};
