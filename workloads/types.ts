/**
 * The `Workload` contract: what a benchmark does, how its servers are found,
 * which traffic drives them and how a real exchange is verified.
 *
 * A workload is a plain object; rtbench keeps no global registry, so two suites
 * in one process never interfere.
 *
 * @module
 */

/** How a workload is driven; each kind has its own runner. */
export type WorkloadKind = "http" | "websocket" | "process" | "micro";

/** One variant of a workload, for example `bcryptjs` or `native`. */
export interface Variant {
  /** Short name used on the command line and in records. */
  readonly name: string;
  /** One line saying what differs in this variant. */
  readonly description: string;
}

/**
 * A workload-specific command-line option, turned into a `--<name>` flag by
 * the CLI and handed to the workload's hooks as {@linkcode OptionValues}.
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
}

/** Parsed values of a workload's options, keyed by option name. */
export type OptionValues = Readonly<Record<string, number | string | undefined>>;

/** Settings that shape a measurement; every record carries the ones it used. */
export interface RunSettings {
  /** Measured seconds per run. @default {3} (quick profile) */
  readonly durationSec: number;
  /** Warm-up seconds before each measured run; its figures are discarded. @default {1} */
  readonly warmupSec: number;
  /** Concurrent connections held by the load generator. @default {100} */
  readonly connections: number;
  /** Measured runs, each with a fresh server. @default {2} (quick profile) */
  readonly runs: number;
  /** Requests in flight per connection (HTTP pipelining). @default {1} */
  readonly pipelining: number;
  /** Whether connections are kept alive between requests. @default {true} */
  readonly keepAlive: boolean;
  /** Seconds a single request may take before it counts as a timeout. @default {10} */
  readonly requestTimeoutSec: number;
  /** Seconds a server may take to accept connections after spawn. @default {30} */
  readonly startTimeoutSec: number;
  /** Adaptive runs: at least this many runs (`--min-runs`); unset means exactly `runs`. */
  readonly minRuns?: number;
  /** Adaptive runs: stop at this many runs even if the interval is still wide (`--max-runs`). */
  readonly maxRuns?: number;
  /** Adaptive runs: stop once the 95% CI half-width of the headline is below this percent of its mean. @default {3} */
  readonly ciTargetPercent?: number;
  /** Milliseconds between resource samples of server and load generator. @default {250} */
  readonly sampleIntervalMs?: number;
}

/** A fact a workload records beside its figures (a version, a cost, a count). */
export type Fact = string | number | boolean | null;

/** One verification step: what was expected and what was seen. */
export interface Check {
  /** What was checked, for example `content-type`. */
  readonly name: string;
  /** Whether the check passed. */
  readonly passed: boolean;
  /** The expected value, when there is one. */
  readonly expected?: Fact;
  /** The observed value. */
  readonly actual?: Fact;
}

/** Where a server's source file lives and how it is started. */
export interface ServerSource {
  /** URL of the entry file, usually `new URL("../servers/deno/x.ts", import.meta.url)`. */
  readonly entry: URL;
  /** Arguments after the file. */
  readonly args?: readonly string[];
}

/** Returned instead of a {@linkcode ServerSource} when a runtime cannot do a variant. */
export interface Skip {
  /** Why the runtime is skipped for this variant. */
  readonly skip: string;
}

/** What every hook receives about the record being measured. */
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
}

/** What {@linkcode WorkloadBase.setup} hands back for the runs that follow. */
export interface WorkloadSession {
  /** Environment variables passed to every server of this workload and variant. */
  readonly env?: Readonly<Record<string, string>>;
  /** Facts recorded on every record of this workload and variant. */
  readonly facts?: Readonly<Record<string, Fact>>;
  /** Called after each run, with the server stopped; returns side-effect checks. */
  afterRun?(run: AfterRunContext): Promise<Check[]>;
  /** Releases whatever `setup` acquired (databases, files). Always called. */
  dispose?(): Promise<void>;
}

/** What {@linkcode WorkloadSession.afterRun} learns about the run that just ended. */
export interface AfterRunContext {
  /** Runtime name the run measured. */
  readonly runtime: string;
  /** Zero-based run index. */
  readonly run: number;
  /** Responses counted as valid in the measured window (warm-up excluded). */
  readonly validResponses: number;
  /** Every response the server sent, warm-up and verification included. */
  readonly totalResponses: number;
}

/** What the response to one request must look like. */
export interface HttpExpectation {
  /** Exact status code. */
  readonly status: number;
  /** Exact `content-type` header value. */
  readonly contentType: string;
  /** Exact body, when the body is fixed. */
  readonly body?: string;
  /** A regular expression (source) the whole body must match, when it varies. */
  readonly bodyPattern?: string;
}

/** One request the load generator sends, with what its response must be. */
export interface HttpRequestSpec {
  /** HTTP method. @default {"GET"} */
  readonly method?: string;
  /** Path and query, starting with `/`. */
  readonly path: string;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Request body. */
  readonly body?: string;
  /** The response every exchange must produce. */
  readonly expect: HttpExpectation;
}

/** The traffic of an HTTP workload: requests cycled through by every connection. */
export interface HttpTraffic {
  /** Requests in the order each connection sends them, then again from the first. */
  readonly requests: readonly HttpRequestSpec[];
}

/** A response as seen by verification. */
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

/** What {@linkcode HttpWorkload.verify} can use to talk to a running server. */
export interface VerifyContext extends WorkloadContext {
  /** Runtime name being verified. */
  readonly runtime: string;
  /** Base URL of the running server, for example `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** The exchanges rtbench already made and checked against their expectations. */
  readonly exchanges: readonly HttpExchange[];
  /** Sends one request to the server and returns the exchange. */
  send(request: HttpRequestSpec): Promise<HttpExchange>;
}

/** Fields every workload has, whatever its kind. */
export interface WorkloadBase {
  /** Name used with `--workload`, kebab-case. */
  readonly name: string;
  /** One line for `--list` and reports. */
  readonly description: string;
  /** Which runner drives it. */
  readonly kind: WorkloadKind;
  /** Variants; the first is the default. */
  readonly variants: readonly Variant[];
  /** Settings this workload prefers over the suite's defaults. */
  readonly defaults?: Partial<RunSettings>;
  /** Workload-specific flags. */
  readonly options?: readonly WorkloadOption[];
  /**
   * npm packages the code under test imports (name → exact version or range),
   * installed once per set into rtbench's cache and linked next to the staged files.
   */
  readonly dependencies?: Readonly<Record<string, string>>;
  /** Once per variant before any runtime runs; its session lives until all runtimes are done. */
  setup?(ctx: WorkloadContext): Promise<WorkloadSession>;
}

/** A workload served over HTTP and loaded by a {@linkcode LoadGenerator}. */
export interface HttpWorkload extends WorkloadBase {
  /** Always `"http"`. */
  readonly kind: "http";
  /** The server for a runtime and variant, or why the runtime cannot run it. */
  server(runtime: string, variant: string): ServerSource | Skip;
  /** The requests to send and the responses they must get. */
  traffic(ctx: WorkloadContext): HttpTraffic;
  /** Checks beyond the traffic's expectations, on a live server, before any load. */
  verify?(ctx: VerifyContext): Promise<Check[]>;
}

/** Any workload rtbench can run. */
export type Workload = HttpWorkload;

/** Type guard: whether a value is a {@linkcode Skip}. */
export function isSkip(value: ServerSource | Skip): value is Skip {
  return "skip" in value;
}
