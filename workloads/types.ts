/**
 * The `Workload` contract: what a benchmark does, how its servers are found,
 * which traffic drives them and how a real exchange is verified.
 *
 * A workload is a plain object; rtbench keeps no global registry, so two suites
 * in one process never interfere.
 *
 * @module
 */

import type { SshHost } from "../runners/platform/mod.ts";

import type { ResolvedRuntime } from "../adapters/mod.ts";
import type { Check, Fact, RunSettings, Warning, WorkloadKind } from "../runners/schema/mod.ts";

export type { Check, Fact, RunSettings, WorkloadKind };

/**
 * One variant of a workload, for example `bcryptjs` or `native`.
 *
 * @example The default variant comes first
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { bcrypt, type Variant } from "@rtbench/rtbench/workloads";
 *
 * const first: Variant = bcrypt.variants[0];
 * assertEquals(first.name, "bcryptjs");
 * ```
 */
export interface Variant {
  /** Short name used on the command line and in records. */
  readonly name: string;
  /** One line saying what differs in this variant. */
  readonly description: string;
  /** Measured only when named with `--variant` (`variants` of `run()`), not by default. @default {false} */
  readonly optional?: boolean;
  /**
   * Measured in the whole suite (`deno task bench` with no `--workload`; `wholeSuite` of `run()`). False keeps a
   * variant to runs that name its workload, so that one workload's matrix does not dominate the suite's time.
   * @default {true}
   */
  readonly inSuite?: boolean;
}

/**
 * A workload-specific command-line option, turned into a `--<name>` flag by
 * the CLI and handed to the workload's hooks as {@linkcode OptionValues}.
 *
 * @example A numeric flag with bounds
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { WorkloadOption } from "@rtbench/rtbench/workloads";
 *
 * const rounds: WorkloadOption = {
 *   name: "rounds",
 *   description: "hash rounds per request",
 *   type: "number",
 *   default: 10,
 *   min: 4,
 *   max: 31,
 *   integer: true,
 * };
 * assertEquals(`--${rounds.name}`, "--rounds");
 * ```
 */
export interface WorkloadOption {
  /** Flag name without dashes, kebab-case, for example `bcrypt-cost`. */
  readonly name: string;
  /** One line for `--help`. */
  readonly description: string;
  /** How the flag's value is parsed. */
  readonly type: "number" | "string";
  /** Value when neither the flag nor {@linkcode WorkloadOption.env} is set. */
  readonly default?: number | string;
  /** Smallest allowed number (inclusive). */
  readonly min?: number;
  /** Largest allowed number (inclusive). */
  readonly max?: number;
  /** Whether a number must be an integer. @default {false} */
  readonly integer?: boolean;
  /** Environment variable read when the flag is absent, for example `DATABASE_URL`. */
  readonly env?: string;
  /** Checks a value beyond its type: returns what is wrong, for the message `--<name>: <problem>`, or undefined. */
  validate?(value: number | string): string | undefined;
  /** Whether the value may hold a secret (a password in a URL): records then say `<secret>` instead. @default {false} */
  readonly secret?: boolean;
}

/**
 * Parsed values of a workload's options, keyed by option name.
 *
 * @example Read an option in a hook
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { OptionValues } from "@rtbench/rtbench/workloads";
 *
 * const options: OptionValues = { "bcrypt-cost": 10 };
 * assertEquals(Number(options["bcrypt-cost"] ?? 12), 10);
 * ```
 */
export type OptionValues = Readonly<Record<string, number | string | undefined>>;

/**
 * Where a server's source file lives and how it is started.
 *
 * A server that finds at start-up that its runtime cannot do the variant (a
 * native addon that is missing or does not load) prints one line
 * `rtbench: skip: <reason>` on stderr and exits before listening; the record
 * is then `skipped` with that reason instead of `errored`.
 *
 * @example The Deno server of a workload, next to its file
 * ```ts
 * import type { ServerSource } from "@rtbench/rtbench/workloads";
 *
 * const deno: ServerSource = { entry: new URL("./servers/deno.ts", import.meta.url), facts: { api: "Deno.serve" } };
 * ```
 *
 * @example A server that imports a module of its parent folder, run as it is
 * ```ts
 * import type { ServerSource } from "@rtbench/rtbench/workloads";
 *
 * const entry = new URL("./app/server/main.mjs", import.meta.url);
 * const app: ServerSource = { entry, assets: [new URL("../routes.mjs", entry)] };
 * ```
 */
export interface ServerSource {
  /** URL of the entry file; rtbench's own workloads find theirs with `serverFile` (`servers/<runtime>/<workload><ext>`). */
  readonly entry: URL;
  /** Arguments after the file. */
  readonly args?: readonly string[];
  /**
   * Files the entry reaches by relative path (modules it imports, data it reads), staged at the same paths relative
   * to it, so that its imports work unchanged: an entry `app/main.mjs` that imports `../routes.mjs` lists
   * `new URL("../routes.mjs", entry)`. An asset must be where the entry is (a `file:` URL beside a `file:` entry).
   * @default {[]}
   */
  readonly assets?: readonly URL[];
  /**
   * Files staged next to the entry under their own names, wherever they are: one server run over a module chosen per
   * variant, which it imports as `./<name>` (rtbench's postgres servers import `./world_db.mjs` from the driver's
   * folder).
   * @default {[]}
   */
  readonly beside?: readonly URL[];
  /** Facts recorded on the records this server measures (which implementation it runs, on which thread). */
  readonly facts?: Readonly<Record<string, Fact>>;
}

/**
 * Returned instead of a {@linkcode ServerSource} when a runtime cannot do a variant.
 *
 * @example A runtime that cannot do a variant
 * ```ts
 * import { assert } from "@std/assert";
 * import { bcrypt, isSkip } from "@rtbench/rtbench/workloads";
 *
 * assert(isSkip(bcrypt.server("quickjs", "native")));
 * ```
 */
export interface Skip {
  /** Why the runtime is skipped for this variant. */
  readonly skip: string;
}

/**
 * What every hook receives about the record being measured.
 *
 * @example What the hooks receive
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { PROFILES } from "@rtbench/rtbench/runners";
 * import { httpJson, type WorkloadContext } from "@rtbench/rtbench/workloads";
 *
 * const ctx: WorkloadContext = {
 *   variant: "default",
 *   options: {},
 *   settings: PROFILES.quick,
 *   tempDir: await Deno.makeTempDir(),
 *   signal: new AbortController().signal,
 * };
 * assertEquals(httpJson.traffic(ctx).requests[0].path, "/");
 * await Deno.remove(ctx.tempDir);
 * ```
 */
export interface WorkloadContext {
  /** Variant being measured. */
  readonly variant: string;
  /** Parsed workload options. */
  readonly options: OptionValues;
  /** Effective settings. */
  readonly settings: RunSettings;
  /** A private directory for this workload and variant, removed by rtbench afterwards. */
  readonly tempDir: string;
  /** Aborted when the suite is interrupted. */
  readonly signal: AbortSignal;
  /** CPUs the code under test is pinned to, for services it needs (a database) to share; null when not pinned. */
  readonly serverCpus?: string | null;
  /** `node_modules` holding the workload's {@linkcode WorkloadBase.dependencies}, when it declares any. */
  readonly nodeModules?: string;
  /**
   * The machine for services the code under test needs (a database), reached over ssh (`--db-host`).
   * @ignore rtbench's own ssh connection, not part of the workload API
   */
  readonly dbHost?: SshHost;
}

/**
 * What {@linkcode WorkloadBase.setup} hands back for the runs that follow.
 *
 * @example A session that counts runs and cleans up
 * ```ts
 * import type { WorkloadSession } from "@rtbench/rtbench/workloads";
 *
 * let runs = 0;
 * const session: WorkloadSession = {
 *   env: { GREETING: "hello" },
 *   facts: { greeting: "hello" },
 *   afterRun: (run) => {
 *     runs++;
 *     return Promise.resolve([{ name: "answered", passed: run.validResponses > 0 }]);
 *   },
 *   dispose: () => Promise.resolve(),
 * };
 * ```
 */
export interface WorkloadSession {
  /** Environment variables passed to every server of this workload and variant. */
  readonly env?: Readonly<Record<string, string>>;
  /** Facts recorded on every record of this workload and variant. */
  readonly facts?: Readonly<Record<string, Fact>>;
  /**
   * The CPUs the servers run on, when the session kept some of the suite's server CPUs for itself (a database on a
   * CPU of its own); records show this set as the server's.
   */
  readonly serverCpus?: string | null;
  /** Warnings on every record of this workload and variant (a database sharing the server's CPUs). */
  readonly warnings?: readonly Warning[];
  /**
   * Checks on a live server that need this session's state (files seen, hashes
   * collected from earlier runtimes); called after the workload's own `verify`.
   */
  verify?(ctx: VerifyContext): Promise<Check[]>;
  /** Called before each run's server starts, for example to read a counter the run is compared against. */
  beforeRun?(run: BeforeRunContext): Promise<void>;
  /** Called after each run, with the server stopped; returns side-effect checks. */
  afterRun?(run: AfterRunContext): Promise<Check[]>;
  /** Releases whatever `setup` acquired (databases, files). Always called. */
  dispose?(): Promise<void>;
}

/**
 * Which run {@linkcode WorkloadSession.beforeRun} is called for.
 *
 * @example Note which run is about to start
 * ```ts
 * import type { BeforeRunContext, WorkloadSession } from "@rtbench/rtbench/workloads";
 *
 * const started: BeforeRunContext[] = [];
 * const session: WorkloadSession = {
 *   beforeRun: (run) => {
 *     started.push(run);
 *     return Promise.resolve();
 *   },
 * };
 * ```
 */
export interface BeforeRunContext {
  /** Runtime name the run measures. */
  readonly runtime: string;
  /** Zero-based run index. */
  readonly run: number;
}

/**
 * What {@linkcode WorkloadSession.afterRun} learns about the run that just ended.
 *
 * @example Check that the run's responses reached the server
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { AfterRunContext, Check } from "@rtbench/rtbench/workloads";
 *
 * function answered(run: AfterRunContext): Check[] {
 *   return [{ name: "responses", passed: run.validResponses > 0, actual: run.validResponses }];
 * }
 * assertEquals(answered({ runtime: "deno", run: 0, validResponses: 10, totalResponses: 12 })[0].passed, true);
 * ```
 */
export interface AfterRunContext {
  /** Runtime name the run measured. */
  readonly runtime: string;
  /** Zero-based run index. */
  readonly run: number;
  /** Responses counted as valid in the measured window (warm-up excluded). */
  readonly validResponses: number;
  /** Every response the server sent, warm-up and verification included: the least work the server did. */
  readonly totalResponses: number;
  /**
   * Every request sent to the server, verification included, answered or not (timed out, cut by a connection error,
   * in flight when the load stopped): the most work the server can have done. Absent when the load generator cannot
   * tell; side-effect checks then allow one request in flight per connection instead.
   */
  readonly sentRequests?: number;
  /**
   * When {@linkcode sentRequests} is absent: the loads the run's server went through (a run measured again over a
   * longer window had one a short attempt, each leaving its own requests in flight), and the requests the generator
   * gave up on (a timed-out request may have done its work; autocannon sends it again). Absent means 1 and 0.
   */
  readonly unsent?: { readonly loads: number; readonly timeouts: number };
  /**
   * Valid responses per endpoint label (see {@linkcode HttpRequestSpec.endpoint}), warm-up and measured window
   * together, verification excluded; absent when the traffic labels no endpoint or the generator cannot count them.
   */
  readonly endpoints?: Readonly<Record<string, number>>;
  /** The measured window (epoch ms), when the kind has one: side effects counted in it compare with `validResponses`. */
  readonly window?: {
    readonly startMs: number;
    readonly durationMs: number;
    /**
     * Each load process's own window (epoch ms, to the rounded millisecond), where the generator opened one per
     * process on its own clock and counted each answer by when it came (the engine's closed model): every valid
     * response came inside its process's window, and its request was in flight at that window's opening or sent in it.
     */
    readonly processes?: readonly { readonly startMs: number; readonly durationMs: number }[];
  };
  /** Adds figures to the run's own (names carry units; existing figures are never replaced). */
  readonly addFigures?: (figures: Readonly<Record<string, number>>) => void;
}

/**
 * What the response to one request must look like.
 *
 * @example An exact body, and a pattern
 * ```ts
 * import type { HttpExpectation } from "@rtbench/rtbench/workloads";
 *
 * const hello: HttpExpectation = { status: 200, contentType: "text/plain", body: "hello" };
 * const uuid: HttpExpectation = { status: 201, contentType: "application/json", bodyPattern: '^\\{"id":"[0-9a-f-]{36}"\\}$' };
 * ```
 *
 * @example Headers a server sets, by value and by pattern
 * ```ts
 * import type { HttpExpectation } from "@rtbench/rtbench/workloads";
 *
 * const item: HttpExpectation = {
 *   status: 200,
 *   contentType: "text/plain",
 *   body: "1 bun",
 *   headers: { "X-Powered-By": "benchmark", "cache-control": /max-age=\d+/ },
 * };
 * ```
 */
export interface HttpExpectation {
  /** Exact status code. */
  readonly status: number;
  /**
   * The `content-type`, compared as a media type (RFC 9110 §8.3.1): type, subtype and parameter names in any case, a
   * `charset` value in any case, blanks around `;` ignored. A type naming no parameter matches any parameters
   * (`text/plain` matches `text/plain;charset=utf-8`); one naming some needs those and no others. `""` means none is
   * sent (a 204).
   */
  readonly contentType: string;
  /**
   * Headers the response must carry, checked before load like the body and by rtbench's load engine on every response:
   * name (any case) → the exact value, or a RegExp the whole value must match. A header sent twice is read as its
   * values joined by `, `.
   * @default {{}} (no header checked beyond content-type and content-length)
   */
  readonly headers?: Readonly<Record<string, string | RegExp>>;
  /** Exact body, when the body is fixed. */
  readonly body?: string;
  /** A regular expression (source) the whole body must match, when it varies. */
  readonly bodyPattern?: string;
  /**
   * Values the body must hold per key, for bodies of rows: every `"<key>":<n>,"<value>":<m>` in the body must have
   * `m === values[n]` (and there must be at least one). rtbench's load engine checks it on every response; the
   * workload's `verify` checks the same before load (postgres: each row's `randomNumber` is the seeded one for its id).
   */
  readonly lookup?: { readonly key: string; readonly value: string; readonly values: readonly number[] };
}

/**
 * One request the load generator sends, with what its response must be.
 *
 * @example A POST with a JSON body
 * ```ts
 * import type { HttpRequestSpec } from "@rtbench/rtbench/workloads";
 *
 * const create: HttpRequestSpec = {
 *   method: "POST",
 *   path: "/items",
 *   headers: { "content-type": "application/json" },
 *   body: '{"name":"a"}',
 *   expect: { status: 201, contentType: "application/json", bodyPattern: '^\\{"id":\\d+\\}$' },
 * };
 * ```
 */
export interface HttpRequestSpec {
  /**
   * HTTP method. A `HEAD`'s answer is read as its head alone (its body expected empty); wrk and autocannon cannot send
   * one. @default {"GET"}
   */
  readonly method?: string;
  /** Path and query, starting with `/`. */
  readonly path: string;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Request body. */
  readonly body?: string;
  /** The response every exchange must produce. */
  readonly expect: HttpExpectation;
  /**
   * The endpoint this request belongs to, for figures per endpoint (`GET /users/:id`); requests with the same
   * label are counted together. Absent on every request: no figures per endpoint.
   */
  readonly endpoint?: string;
  /**
   * A regular expression (source) with one group, applied to this request's valid responses: the group's text is
   * kept by the connection and replaces {@linkcode CAPTURE} in the `path` and `expect.bodyPattern` of the requests
   * after it, so that a connection can create a resource and then read, change and delete that one. A request that
   * uses the capture goes out only when its connection holds one and has nothing else in flight; without one it is
   * passed over. Only rtbench's load engine sends such traffic.
   */
  readonly capture?: string;
}

/**
 * The placeholder a request's `path` and expected `bodyPattern` hold for the value its connection captured
 * (see {@linkcode HttpRequestSpec.capture}).
 *
 * @example Read back the resource this connection created
 * ```ts
 * import { CAPTURE, type HttpRequestSpec } from "@rtbench/rtbench/workloads";
 *
 * const readBack: HttpRequestSpec = {
 *   path: `/users/${CAPTURE}`,
 *   expect: { status: 200, contentType: "application/json", bodyPattern: `\\{"id":${CAPTURE},.*` },
 * };
 * ```
 */
export const CAPTURE = "{{capture}}";

/**
 * The traffic of an HTTP workload: requests cycled through by every connection.
 *
 * @example Two requests, sent in turn by every connection
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { HttpTraffic } from "@rtbench/rtbench/workloads";
 *
 * const traffic: HttpTraffic = {
 *   requests: [
 *     { path: "/a", expect: { status: 200, contentType: "text/plain", body: "a" } },
 *     { path: "/b", expect: { status: 200, contentType: "text/plain", body: "b" } },
 *   ],
 * };
 * assertEquals(traffic.requests.length, 2);
 * ```
 */
export interface HttpTraffic {
  /** Requests in the order each connection sends them, then again from the first. */
  readonly requests: readonly HttpRequestSpec[];
  /**
   * How many of the distinct requests verification and the parity check send before load, when not all: for
   * traffic whose requests differ only in data and each cost real time (bcrypt's 64 passwords). The record's
   * `verifiedRequests` and `distinctRequests` facts say what was covered.
   * @default every distinct request
   */
  readonly verified?: number;
  /**
   * Responses the load engine keeps, to be checked after the run by `check` (for checks too costly for every
   * response: bcrypt verifies a hash against its password): the first valid response of each engine process and
   * every `every`-th after it. A failed check makes the record invalid.
   */
  readonly sampled?: {
    readonly every: number;
    check(samples: readonly SampledResponse[]): Promise<Check[]>;
  };
}

/**
 * A response the load engine kept under load (see {@linkcode HttpTraffic.sampled}), with the request it answered.
 *
 * @example The password a sampled bcrypt hash must verify against
 * ```ts
 * import type { SampledResponse } from "@rtbench/rtbench/workloads";
 *
 * const password = (s: SampledResponse) => JSON.parse(s.request.body ?? "{}").password;
 * ```
 */
export interface SampledResponse {
  /** The request it answered. */
  readonly request: HttpRequestSpec;
  /** Its body, as text. */
  readonly body: string;
}

/**
 * A response as seen by verification.
 *
 * @example Check a header of an exchange
 * ```ts
 * import { assert } from "@std/assert";
 * import type { HttpExchange } from "@rtbench/rtbench/workloads";
 *
 * const exchange: HttpExchange = {
 *   request: { path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } },
 *   status: 200,
 *   headers: { "content-type": "text/plain", "content-length": "2" },
 *   body: "ok",
 *   bodyBytes: 2,
 * };
 * assert(exchange.headers["content-length"] === String(exchange.bodyBytes));
 * ```
 */
export interface HttpExchange {
  /** The request sent. */
  readonly request: HttpRequestSpec;
  /** Status code received. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Body as text. */
  readonly body: string;
  /** Body length in bytes. */
  readonly bodyBytes: number;
}

/**
 * What {@linkcode HttpWorkload.verify} can use to talk to a running server.
 *
 * @example A verify hook that sends one more request
 * ```ts
 * import type { Check, VerifyContext } from "@rtbench/rtbench/workloads";
 *
 * async function verify(ctx: VerifyContext): Promise<Check[]> {
 *   const missing = await ctx.send({ path: "/nope", expect: { status: 404, contentType: "text/plain" } });
 *   return [{ name: "unknown path is 404", passed: missing.status === 404, expected: 404, actual: missing.status }];
 * }
 * ```
 */
export interface VerifyContext extends WorkloadContext {
  /** Runtime name being verified. */
  readonly runtime: string;
  /**
   * Which run's fresh server this is: 0 is the record's first, verified in full; a later one is the same code in a new
   * process, which a hook may check more briefly (its exchanges are then a few requests, not every distinct one).
   */
  readonly run: number;
  /** Base URL of the running server, for example `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** The exchanges rtbench already made and checked against their expectations. */
  readonly exchanges: readonly HttpExchange[];
  /** Sends one request to the server and returns the exchange. */
  send(request: HttpRequestSpec): Promise<HttpExchange>;
}

/**
 * Fields every workload has, whatever its kind.
 *
 * @example The fields every kind shares
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { builtinWorkloads, type WorkloadBase } from "@rtbench/rtbench/workloads";
 *
 * const base: WorkloadBase = builtinWorkloads[0];
 * assertEquals([base.name, base.variants[0].name], ["http-json", "default"]);
 * ```
 */
export interface WorkloadBase {
  /** Name used with `--workload`, kebab-case. */
  readonly name: string;
  /** One line for `--list` and reports. */
  readonly description: string;
  /** Which runner drives it. */
  readonly kind: WorkloadKind;
  /** Variants; the first is the default. */
  readonly variants: readonly Variant[];
  /**
   * Settings this workload prefers over the profile's. Its `durationSec`,
   * `warmupSec` and `runs` apply to the quick profile only (`--profile full`
   * keeps the full budget); the others apply to every profile.
   */
  readonly defaults?: Partial<RunSettings>;
  /** Workload-specific flags. */
  readonly options?: readonly WorkloadOption[];
  /**
   * npm packages the code under test imports (name → exact version or range),
   * installed once per set into rtbench's cache and linked next to the staged files.
   */
  readonly dependencies?: Readonly<Record<string, string>>;
  /**
   * npm packages only some servers use, installed beside `dependencies` when
   * they can be (a native addon that neither has a prebuilt binary nor builds
   * here is left out, and the server that needs it reports a skip).
   */
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  /** Once per variant before any runtime runs; its session lives until all runtimes are done. */
  setup?(ctx: WorkloadContext): Promise<WorkloadSession>;
}

/**
 * A workload served over HTTP and loaded by a {@linkcode LoadGenerator}.
 *
 * @example A workload with its own servers
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { HttpWorkload } from "@rtbench/rtbench/workloads";
 *
 * const ping: HttpWorkload = {
 *   name: "ping",
 *   description: "GET /ping answers pong",
 *   kind: "http",
 *   variants: [{ name: "default", description: "the runtime's own HTTP server" }],
 *   // One TypeScript file beside this one, for the runtimes that run TypeScript files as they are.
 *   server: (runtime) =>
 *     runtime === "deno" || runtime === "bun"
 *       ? { entry: new URL("./servers/ping.ts", import.meta.url) }
 *       : { skip: `no ping server for ${runtime}` },
 *   traffic: () => ({ requests: [{ path: "/ping", expect: { status: 200, contentType: "text/plain", body: "pong" } }] }),
 * };
 * assertEquals(ping.server("quickjs", "default"), { skip: "no ping server for quickjs" });
 * ```
 */
export interface HttpWorkload extends WorkloadBase {
  /** Always `"http"`. */
  readonly kind: "http";
  /** The server for a runtime and variant, or why the runtime cannot run it. */
  server(runtime: string, variant: string): ServerSource | Skip;
  /** The requests to send and the responses they must get. */
  traffic(ctx: WorkloadContext): HttpTraffic;
  /** Checks beyond the traffic's expectations, on a live server, before any load. */
  verify?(ctx: VerifyContext): Promise<Check[]>;
  /**
   * Figures derived from each measured run's own (`requestsPerSecond`,
   * `validResponses`, `durationMs`, ...), added beside them; names carry units,
   * for example `filesWrittenPerSecond`. Existing figures are never replaced.
   */
  figures?(run: Readonly<Record<string, number>>, ctx: WorkloadContext): Record<string, number>;
}

/**
 * A command line to run, with where and how.
 *
 * @example Run a script with Node.js
 * ```ts
 * import type { ProcessCommand } from "@rtbench/rtbench/workloads";
 *
 * const command: ProcessCommand = { argv: ["node", "main.mjs"], cwd: "/tmp/work", env: { NO_COLOR: "1" } };
 * ```
 */
export interface ProcessCommand {
  /** The argv, binary first. */
  readonly argv: readonly string[];
  /** Working directory. */
  readonly cwd: string;
  /**
   * The variables rtbench sets for it. The process gets these and PATH, HOME, TMPDIR and the locale from
   * rtbench's environment, nothing else of it (unless `--pass-env` names a variable).
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The process reaches a package registry (an install): it also gets proxy variables, CA bundles and the
   * package managers' own configuration from rtbench's environment. @default {false}
   */
  readonly registry?: boolean;
}

/**
 * How many times a process is run: hyperfine's warm-up, minimum runs and minimum time.
 *
 * @example hyperfine's defaults
 * ```ts
 * import type { ProcessPlan } from "@rtbench/rtbench/workloads";
 *
 * const plan: ProcessPlan = { warmupRuns: 3, minRuns: 10, minDurationMs: 3000, runTimeoutMs: 60_000 };
 * ```
 */
export interface ProcessPlan {
  /** Runs before measuring, checked but not measured. */
  readonly warmupRuns: number;
  /** At least this many measured runs. */
  readonly minRuns: number;
  /** And at least this much measured wall time in total, in milliseconds. */
  readonly minDurationMs: number;
  /** Never more than this many measured runs. @default {1000} */
  readonly maxRuns?: number;
  /** Milliseconds one run may take before it is killed and the record errors. @default {600000} */
  readonly runTimeoutMs?: number;
}

/**
 * One finished run of a process, as timed by rtbench.
 *
 * @example Judge a run by its exit code and output
 * ```ts
 * import { assert } from "@std/assert";
 * import type { ProcessRun } from "@rtbench/rtbench/workloads";
 *
 * const run: ProcessRun = {
 *   index: 0,
 *   warmup: false,
 *   wallMs: 41.2,
 *   userMs: 30.1,
 *   systemMs: 8.4,
 *   maxRssBytes: 42_000_000,
 *   exitCode: 0,
 *   signal: null,
 *   timedOut: false,
 *   stdout: "ready\n",
 *   stderr: "",
 * };
 * assert(run.exitCode === 0 && run.stdout === "ready\n");
 * ```
 */
export interface ProcessRun {
  /** Zero-based index among the warm-up runs, or among the measured runs. */
  readonly index: number;
  /** Whether this was a warm-up run (checked, not measured). */
  readonly warmup: boolean;
  /** Wall time from spawn to exit. */
  readonly wallMs: number;
  /** User CPU time of the process and the children it waited for; null when the timer cannot read it. */
  readonly userMs: number | null;
  /** System CPU time, like {@linkcode ProcessRun.userMs}. */
  readonly systemMs: number | null;
  /** Peak resident set size; null when the timer cannot read it. */
  readonly maxRssBytes: number | null;
  /** Exit code; null when a signal ended the process. */
  readonly exitCode: number | null;
  /** The signal that ended the process, or null. */
  readonly signal: number | null;
  /** Whether rtbench killed it for taking longer than {@linkcode ProcessPlan.runTimeoutMs}. */
  readonly timedOut: boolean;
  /** The start of what the process wrote to stdout. */
  readonly stdout: string;
  /** The end of what the process wrote to stderr. */
  readonly stderr: string;
}

/**
 * What a process workload learns about one finished run: checks, and figures the run reported.
 *
 * @example Checks and a figure the run printed
 * ```ts
 * import type { RunInspection } from "@rtbench/rtbench/workloads";
 *
 * const inspection: RunInspection = {
 *   checks: [{ name: "exit code", passed: true, expected: 0, actual: 0 }],
 *   figures: { writeMs: 12.5 },
 * };
 * ```
 */
export interface RunInspection {
  /** Checks of exit code, output and side effects; a failed one makes the record invalid. */
  readonly checks: readonly Check[];
  /** Figures the run reported about itself (for example `writeMs`), unit in the name. */
  readonly figures?: Readonly<Record<string, number>>;
}

/**
 * A process ready to be timed for one runtime and variant, from {@linkcode ProcessWorkload.prepare}.
 *
 * @example Time `node -e` and check what it prints
 * ```ts
 * import type { ProcessTarget } from "@rtbench/rtbench/workloads";
 *
 * const target: ProcessTarget = {
 *   command: { argv: ["node", "-e", "console.log('ready')"], cwd: "." },
 *   plan: { warmupRuns: 1, minRuns: 5, minDurationMs: 0 },
 *   inspect: (run) => ({ checks: [{ name: "output", passed: run.stdout === "ready\n", actual: run.stdout }] }),
 * };
 * ```
 */
export interface ProcessTarget {
  /** The process to time. */
  readonly command: ProcessCommand;
  /** How many runs. */
  readonly plan: ProcessPlan;
  /** Facts recorded beside the figures (versions, modes, counts). */
  readonly facts?: Readonly<Record<string, Fact>>;
  /**
   * Untimed, before every run (warm-ups included): restores the starting state,
   * for example an empty cache. When present, runs are timed one at a time.
   */
  beforeRun?(run: { readonly index: number; readonly warmup: boolean }): Promise<void>;
  /** Untimed, after every run: checks it and reads the figures it reported. */
  inspect(run: ProcessRun): Promise<RunInspection> | RunInspection;
  /** Releases what `prepare` acquired; always called. */
  dispose?(): Promise<void>;
}

/**
 * What {@linkcode ProcessWorkload.prepare} gets for one record.
 *
 * @example Build a command for the runtime being measured
 * ```ts
 * import type { ProcessCommand, ProcessContext } from "@rtbench/rtbench/workloads";
 *
 * function hello(ctx: ProcessContext): ProcessCommand {
 *   return { argv: ctx.runtime.adapter.evalCommand(ctx.runtime.binary, 'console.log("ready")'), cwd: ctx.workDir };
 * }
 * ```
 */
export interface ProcessContext extends WorkloadContext {
  /** The runtime to measure. */
  readonly runtime: ResolvedRuntime;
  /** A private, empty directory for this record, removed by rtbench afterwards. */
  readonly workDir: string;
  /**
   * A directory every variant of this workload shares within one suite, removed by rtbench afterwards: state one
   * variant prepares that a later one may reuse (a primed package cache). Absent outside a suite.
   */
  readonly sharedDir?: string;
  /** `node_modules` holding the workload's dependencies, when it declares any. */
  readonly nodeModules: string | undefined;
}

/**
 * The figure records are ranked by.
 *
 * @example Durations rank lower first
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { startup, type HeadlineFigure } from "@rtbench/rtbench/workloads";
 *
 * const headline: HeadlineFigure = startup.headline;
 * assertEquals(headline, { figure: "wallMs", higherIsBetter: false });
 * ```
 */
export interface HeadlineFigure {
  /** Figure name, unit in the name, for example `wallMs`. */
  readonly figure: string;
  /** Whether larger is better. */
  readonly higherIsBetter: boolean;
}

/**
 * A workload that times whole processes from spawn to exit (startup, install, file I/O).
 *
 * @example Time how long a runtime takes to print one line
 * ```ts
 * import type { ProcessWorkload } from "@rtbench/rtbench/workloads";
 *
 * const hello: ProcessWorkload = {
 *   name: "hello",
 *   description: "spawn to exit of a one-line program",
 *   kind: "process",
 *   variants: [{ name: "default", description: "console.log" }],
 *   headline: { figure: "wallMs", higherIsBetter: false },
 *   prepare: (ctx) =>
 *     Promise.resolve({
 *       command: { argv: ctx.runtime.adapter.evalCommand(ctx.runtime.binary, 'console.log("ready")'), cwd: ctx.workDir },
 *       plan: { warmupRuns: 1, minRuns: 5, minDurationMs: 0 },
 *       inspect: (run) => ({ checks: [{ name: "output", passed: run.stdout === "ready\n" }] }),
 *     }),
 * };
 * ```
 */
export interface ProcessWorkload extends WorkloadBase {
  /** Always `"process"`. */
  readonly kind: "process";
  /** The figure records are ranked by. */
  readonly headline: HeadlineFigure;
  /** Stages files and builds the command for one runtime and variant (untimed), or says why it cannot run. */
  prepare(ctx: ProcessContext): Promise<ProcessTarget | Skip>;
}

/**
 * What a micro-benchmark script prints as the last line of its stdout, as JSON.
 *
 * @example Verify a report's sample
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { PROFILES } from "@rtbench/rtbench/runners";
 * import { micro, type MicroReport } from "@rtbench/rtbench/workloads";
 *
 * const report: MicroReport = {
 *   task: "uuid",
 *   opsPerCall: 100,
 *   sample: "0b5e4c1e-2f5d-4c3a-9d7e-6a1b2c3d4e5f",
 *   selfCheck: true,
 *   sink: 3600,
 *   timer: "hrtimeNow",
 *   detectedResolutionMs: 0.00004,
 *   runtime: "node",
 *   runtimeVersion: "20.20.2",
 *   timeMs: 500,
 *   warmupTimeMs: 100,
 *   latencyMs: { mean: 0.02, p50: 0.019, p99: 0.05, min: 0.017, max: 0.4, rme: 0.3, samples: 25000 },
 *   throughput: { mean: 50000, p50: 52000, p99: 20000, rme: 0.3 },
 * };
 * const ctx = { variant: "uuid", options: {}, settings: PROFILES.quick, tempDir: "", signal: AbortSignal.abort() };
 * const checks = await micro.verify(report, ctx);
 * assertEquals(checks.map((c) => c.passed), [true]);
 * ```
 */
export interface MicroReport {
  /** The task measured (the variant). */
  readonly task: string;
  /** Operations one call of the task function performs. */
  readonly opsPerCall: number;
  /** One result of the task, for verification. */
  readonly sample: string;
  /** The script's own check of its sample (for example the bcrypt hash verifying). */
  readonly selfCheck: boolean;
  /** Every result folded into one number, printed so the engine cannot drop the work. */
  readonly sink: number;
  /** tinybench's timestamp provider, for example `hrtimeNow`. */
  readonly timer: string;
  /** tinybench's `detectedResolution` in milliseconds: its smallest repeated sample, a heuristic, not a bound. */
  readonly detectedResolutionMs: number | null;
  /** The runtime as tinybench saw it, for example `node`. */
  readonly runtime: string;
  /** Its version as tinybench saw it. */
  readonly runtimeVersion: string;
  /** tinybench's `time` option used, in milliseconds. */
  readonly timeMs: number;
  /** tinybench's `warmupTime` option used, in milliseconds. */
  readonly warmupTimeMs: number;
  /** Latency statistics of one call, in milliseconds (`rme` in percent). */
  readonly latencyMs: {
    readonly mean: number;
    readonly p50: number;
    readonly p99: number;
    readonly min: number;
    readonly max: number;
    readonly rme: number;
    readonly samples: number;
  };
  /** Throughput statistics in calls per second (`rme` in percent). */
  readonly throughput: { readonly mean: number; readonly p50: number; readonly p99: number; readonly rme: number };
}

/**
 * A workload measured inside one runtime process by tinybench.
 *
 * @example The built-in micro-benchmarks
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { micro, type MicroWorkload } from "@rtbench/rtbench/workloads";
 *
 * const workload: MicroWorkload = micro;
 * assertEquals(workload.variants.map((v) => v.name), ["json", "uuid", "bcrypt", "url-query"]);
 * ```
 */
export interface MicroWorkload extends WorkloadBase {
  /** Always `"micro"`. */
  readonly kind: "micro";
  /** The benchmark script for a runtime and variant, or why the runtime cannot run it. */
  script(runtime: string, variant: string): ServerSource | Skip;
  /** Files staged next to the script (fixtures it reads). */
  readonly assets?: readonly URL[];
  /** Checks a run's report (its sample output and self-check) before its figures count. */
  verify(report: MicroReport, ctx: WorkloadContext): Check[] | Promise<Check[]>;
}

/**
 * The traffic of a WebSocket echo workload: binary messages every socket sends and expects back unchanged.
 *
 * @example 64-byte messages, one in flight per socket
 * ```ts
 * import type { WebSocketTraffic } from "@rtbench/rtbench/workloads";
 *
 * const traffic: WebSocketTraffic = { path: "/ws", messageSize: 64, inFlight: 1 };
 * ```
 */
export interface WebSocketTraffic {
  /** Path of the WebSocket endpoint, starting with `/`. */
  readonly path: string;
  /** Bytes per message (at least 8: each carries its socket and sequence numbers). @default {64} */
  readonly messageSize: number;
  /** Messages in flight per socket. @default {1} */
  readonly inFlight: number;
  /** Verified echoes after which a measured run ends; absent to measure for the duration. */
  readonly messages?: number;
}

/**
 * A workload served over WebSocket: every message must come back unchanged, text as text, binary as binary.
 *
 * @example The echo workload's traffic
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { PROFILES } from "@rtbench/rtbench/runners";
 * import { type WebSocketWorkload, wsEcho } from "@rtbench/rtbench/workloads";
 *
 * const ws: WebSocketWorkload = wsEcho;
 * const traffic = ws.traffic({
 *   variant: "default",
 *   options: { "message-size": 64, "in-flight": 1 },
 *   settings: PROFILES.quick,
 *   tempDir: "",
 *   signal: new AbortController().signal,
 * });
 * assertEquals(traffic.messageSize, 64);
 * ```
 */
export interface WebSocketWorkload extends WorkloadBase {
  /** Always `"websocket"`. */
  readonly kind: "websocket";
  /** The server for a runtime and variant, or why the runtime cannot run it. */
  server(runtime: string, variant: string): ServerSource | Skip;
  /** The messages to send. */
  traffic(ctx: WorkloadContext): WebSocketTraffic;
}

/**
 * Any workload rtbench can run.
 *
 * @example Narrow a workload by its kind
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { builtinWorkloads, type Workload } from "@rtbench/rtbench/workloads";
 *
 * function headline(w: Workload): string {
 *   return w.kind === "process" ? w.headline.figure : w.kind === "micro" ? "opsPerSecond" : "requestsPerSecond";
 * }
 * assertEquals(builtinWorkloads.map(headline).slice(0, 7), [
 *   "requestsPerSecond",
 *   "requestsPerSecond",
 *   "requestsPerSecond",
 *   "requestsPerSecond",
 *   "requestsPerSecond",
 *   "requestsPerSecond",
 *   "wallMs",
 * ]);
 * ```
 */
export type Workload = HttpWorkload | WebSocketWorkload | ProcessWorkload | MicroWorkload;

/**
 * Type guard: whether a value is a {@linkcode Skip}.
 *
 * @param value What a workload's `server()`, `script()` or `prepare()` returned.
 * @returns Whether `value` says the runtime is skipped.
 *
 * @example Tell a server from a skip
 * ```ts
 * import { assert } from "@std/assert";
 * import { httpJson, isSkip } from "@rtbench/rtbench/workloads";
 *
 * assert(!isSkip(httpJson.server("deno", "default")));
 * assert(isSkip(httpJson.server("quickjs", "default")));
 * ```
 */
export function isSkip<T extends object>(value: T | Skip): value is Skip {
  return "skip" in value;
}
