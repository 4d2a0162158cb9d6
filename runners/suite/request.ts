/**
 * What `run()` may be asked for ({@linkcode RunOptions}) and the one
 * validator of it: every field checked before anything runs, each error a
 * {@linkcode RequestError} naming the field (`settings.durationSec`,
 * `runtimes`, `hosts.server`), which the command line renders with its flags'
 * names. The checks that need the world — the connections the machine can
 * carry, the hosts answering ssh — are here too, run before the first server.
 *
 * @module
 */

import {
  builtinAdapters,
  defaultRuntimeNames,
  parseRuntimeSpecs,
  type RuntimeAdapter,
  type RuntimeSpec,
} from "../../adapters/mod.ts";
import { builtinWorkloads, type RunSettings, validateWorkload, type Workload } from "../../workloads/mod.ts";
import {
  builtinLoadGenerators,
  hostsOf,
  type HostsOption,
  type LoadGenerator,
  type Topology,
  topologyOf,
} from "../drivers/mod.ts";
import type { HookTimeouts } from "../kinds/mod.ts";
import { cannotListen, connectionCeiling, RequestError, UsageError } from "../platform/mod.ts";
import type { ProgressEvent } from "./progress.ts";
import type { BenchResult, CpuSets, MachineCalibration, PairingMode, RunOrder } from "../schema/mod.ts";
import { planGroups, type Planned } from "./plan.ts";
import { type Schedule, scheduleOf } from "./schedule.ts";
import { armSpecs } from "./aa.ts";
import { checkPassEnv } from "./environment.ts";
import { type Profile, PROFILES, validateSettings } from "./settings.ts";

/**
 * Options of `run()`.
 *
 * @example Two runtimes, five runs, the full profile
 * ```ts
 * import type { RunOptions } from "@rtbench/rtbench/runners";
 * import { httpJson } from "@rtbench/rtbench/workloads";
 *
 * const options: RunOptions = {
 *   workloads: [httpJson],
 *   runtimes: ["deno", "node@22"],
 *   profile: "full",
 *   settings: { runs: 5 },
 *   loadGenerator: "auto",
 *   signal: AbortSignal.timeout(600_000),
 * };
 * ```
 */
export interface RunOptions {
  /** Workloads to run. @default {builtinWorkloads} */
  workloads?: readonly Workload[];
  /** Runtimes, as names, `name@version` strings or specs. @default {["deno", "node", "bun"]} */
  runtimes?: readonly (string | RuntimeSpec)[];
  /** Variants to run, by name; absent means every variant of each workload but the optional ones. */
  variants?: readonly string[];
  /**
   * The whole suite, no workload named: variants marked `inSuite: false` (a workload's framework matrix) are left
   * to runs that name their workload. @default {false}
   */
  wholeSuite?: boolean;
  /** Profile the defaults come from. @default {"quick"} */
  profile?: Profile;
  /** Explicit settings, applied over profile and workload defaults. */
  settings?: Partial<RunSettings>;
  /** Workload options by name (for example `{ "bcrypt-cost": 10 }`). */
  options?: Readonly<Record<string, unknown>>;
  /**
   * Load generator for HTTP workloads: `"auto"` (rtbench's engine, or the first installed one that
   * can send the workload's traffic), a name (`"wrk"`, `"bombardier"`, `"oha"`,
   * `"autocannon"`) or a {@linkcode LoadGenerator}. @default {"auto"}
   */
  loadGenerator?: LoadGenerator | string;
  /** Runtime adapters to choose from. @default {builtinAdapters} */
  adapters?: readonly RuntimeAdapter[];
  /** Cache for provisioned runtimes and server dependencies. @default {cacheDir()} */
  cacheDir?: string;
  /** Parent directory of rtbench's temporary directory. @default {the system's (TMPDIR)} */
  tempDir?: string;
  /** CPU sets; by default the allowed CPUs are split between server and client. */
  cpus?: CpuSets;
  /**
   * Interrupts the suite: running processes are stopped, the finished runs are kept, and `run` rejects with an
   * `InterruptedError` holding the partial result (marked `interrupted`), after handing it to `onPartial`.
   */
  signal?: AbortSignal;
  /** Receives progress events. */
  onProgress?(event: ProgressEvent): void;
  /**
   * Receives the partial result once the request is checked, after every finished record, and when the suite
   * stops early (write it to keep it).
   */
  onPartial?(partial: BenchResult): void | Promise<void>;
  /** Interface servers bind and the load comes through (`--host`). @default {"127.0.0.1"} */
  host?: string;
  /** Port every server listens on (`--port`); absent means a free port chosen per server. */
  port?: number;
  /**
   * An earlier, unfinished result of the same suite (`--resume`): its done records
   * (`DONE_STATUSES`) are kept and not measured again, its interrupted records go on from their finished runs,
   * the others are measured. Throws a {@linkcode RequestError} when it was measured with other settings or on
   * another machine.
   */
  resume?: { readonly file: string; readonly result: BenchResult };
  /** Seconds each workload hook may take, over the defaults (`HOOK_TIMEOUTS_SEC`). */
  hookTimeoutsSec?: Partial<HookTimeouts>;
  /**
   * Order of one variant's runtimes within each round of runs (`--order`): run i of every runtime comes
   * before run i+1 of any. `rotate` moves the first runtime to the end each round, `shuffle` draws a seeded
   * order each round, `blocked` measures every run of one runtime before the next. @default {"rotate"}
   */
  order?: RunOrder;
  /** Seed of the `shuffle` order (`--seed`); a seed alone means `shuffle`. @default {a random seed, recorded} */
  seed?: number;
  /**
   * An A/A run (`--aa`): the one runtime in `runtimes` is measured as two arms, A and B, interleaved exactly as two
   * runtimes would be; the report publishes the noise floor their per-round ratios show. @default {false}
   */
  aa?: boolean;
  /**
   * How ratios of CPU per request at the fixed rate are paired (`--pairing`): `duet`, every pair of runtimes' servers
   * up at once on one CPU, their loads on another, loaded at the same rate in the same seconds, one ratio per round of
   * shared windows (HTTP workloads with `--cpu-rate`; where a machine cannot, the rounds' ratios, with a warning);
   * `rounds`, only the per-round ratios of runs taken in turn. @default {"duet"}
   */
  pairing?: PairingMode;
  /**
   * Other machines, reached with the system `ssh`, for the servers (`--server-host`), the load engine
   * (`--client-host`, several share each run) and the database (`--db-host`). @default {all on this machine}
   */
  hosts?: HostsOption;
  /**
   * Variables of rtbench's environment every process it starts keeps (`--pass-env`). Without them, a process
   * gets only PATH, HOME, TMPDIR and the locale of rtbench's environment (installs: also what reaches a registry),
   * and the variables rtbench sets. @default {[]}
   */
  passEnv?: readonly string[];
  /**
   * This machine's calibration (its speed, which results are compared by), measured earlier in the same process with
   * the drivers' `measureMachineSpeed()`: used instead of measuring one when the suite starts, so that suites run one after
   * another measure it once. @default {measured when the suite starts}
   */
  calibration?: MachineCalibration;
}

/** What `run()` was asked for, checked. */
export interface Request {
  /** The profile the defaults come from. */
  readonly profile: Profile;
  /** Explicit settings. */
  readonly overrides: Partial<RunSettings>;
  /** Runtime adapters to choose from. */
  readonly adapters: readonly RuntimeAdapter[];
  /** The runtimes, as requested. */
  readonly specs: readonly RuntimeSpec[];
  /** The workloads, each checked. */
  readonly workloads: readonly Workload[];
  /** The order of runs within rounds. */
  readonly schedule: Schedule;
  /** Every workload × variant to measure, with its settings and options. */
  readonly groups: readonly Planned[];
  /** The other machines, not yet connected. */
  readonly topology: Topology | undefined;
  /** Variables of rtbench's environment every process keeps, without repeats. */
  readonly passEnv: readonly string[];
  /** How ratios of CPU per request at the fixed rate are paired. */
  readonly pairing: PairingMode;
  /** Whether the pairing was asked for rather than the default (a variant duet cannot measure then warns). */
  readonly pairingAsked: boolean;
}

/** Ports the Fetch standard blocks (https://fetch.spec.whatwg.org/#bad-port): verification could never reach them. */
const FETCH_BAD_PORTS = new Set([
  ..."1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 110".split(" "),
  ..."111 113 115 117 119 123 135 137 139 143 161 179 389 427 465 512 513 514 515 526 530 531".split(" "),
  ..."532 540 548 554 556 563 587 601 636 989 990 993 995 1719 1720 1723 2049 3659 4045 4190".split(" "),
  ..."5060 5061 6000 6566 6665 6666 6667 6668 6669 6679 6697 10080".split(" "),
].map(Number));

/**
 * Checks everything `run()` is asked for that can be checked without the
 * network or a child process, and plans the suite. Throws a
 * {@linkcode RequestError} naming the first field that is wrong.
 *
 * @param options What `run()` is asked for.
 * @returns The request, checked and planned.
 *
 * @example A duration of zero is refused, naming the field
 * ```ts
 * import { assertThrows } from "@std/assert";
 * import { checkRequest } from "./request.ts";
 *
 * assertThrows(() => checkRequest({ settings: { durationSec: 0 } }), Error, "settings.durationSec must be");
 * ```
 */
export function checkRequest(options: RunOptions): Request {
  const profile = options.profile ?? "quick";
  if (!Object.hasOwn(PROFILES, profile)) {
    throw new RequestError("profile", `: unknown profile "${profile}" (allowed: ${Object.keys(PROFILES).join(", ")})`);
  }
  const overrides = options.settings ?? {};
  validateSettings(overrides);
  const adapters = options.adapters ?? builtinAdapters;
  const asked = (options.runtimes ?? defaultRuntimeNames(adapters)).flatMap((r) =>
    typeof r === "string" ? parseRuntimeSpecs(r, adapters) : [r]
  );
  if (asked.length === 0) throw new RequestError("runtimes", ": no runtime given");
  const specs = options.aa ? armSpecs(asked) : asked;
  const workloads = checkWorkloads(options.workloads ?? builtinWorkloads);
  checkVariants(workloads, options.variants);
  const schedule = scheduleOf(options.order, options.seed);
  const groups = planGroups(workloads, profile, overrides, options.options ?? {}, options.variants, options.wholeSuite);
  if (groups.length === 0) throw new RequestError("variants", ": nothing to measure (no variant selected)");
  checkLoadGenerator(options.loadGenerator);
  checkKeepAlive(groups, overrides, options.loadGenerator);
  checkEndpoint(options.host, options.port);
  const topology = options.hosts ? topologyOf(options.hosts) : undefined;
  if (options.hosts?.sshConfig !== undefined) checkReadable("hosts.sshConfig", options.hosts.sshConfig);
  const passEnv = checkPassEnv(options.passEnv ?? []);
  const pairing = options.pairing ?? "duet";
  if (pairing !== "rounds" && pairing !== "duet") {
    throw new RequestError("pairing", `: unknown pairing "${pairing}" (allowed: duet, rounds)`);
  }
  const pairingAsked = options.pairing !== undefined;
  return { profile, overrides, adapters, specs, workloads, schedule, groups, topology, passEnv, pairing, pairingAsked };
}

/** Workloads can come from users' code: a malformed one is one clear error before anything runs. */
function checkWorkloads(workloads: readonly Workload[]): Workload[] {
  if (workloads.length === 0) throw new RequestError("workloads", ": no workload given");
  return workloads.map((w) => {
    try {
      return validateWorkload(w, `workload ${w?.name ?? "?"}`);
    } catch (error) {
      throw new RequestError("workloads", `: ${(error as Error).message}`, { cause: error });
    }
  });
}

function checkVariants(workloads: readonly Workload[], variants: readonly string[] | undefined): void {
  if (variants === undefined) return;
  if (variants.length === 0) throw new RequestError("variants", ": no variant given");
  const known = [...new Set(workloads.flatMap((w) => w.variants.map((v) => v.name)))];
  const unknown = variants.find((v) => !known.includes(v));
  if (unknown !== undefined) {
    throw new RequestError("variants", `: unknown variant "${unknown}" (allowed: ${known.join(", ")})`);
  }
}

function checkLoadGenerator(requested: RunOptions["loadGenerator"]): void {
  if (requested === undefined || typeof requested !== "string") return;
  const names = builtinLoadGenerators.map((g) => g.name);
  if (requested !== "auto" && !names.includes(requested)) {
    throw new RequestError(
      "loadGenerator",
      `: unknown load generator "${requested}" (allowed: auto, ${names.join(", ")})`,
    );
  }
}

/**
 * `keepAlive: false` (`--keep-alive off`) asks for a new connection per request: refused for a WebSocket workload (its
 * messages share one connection by design), for a suite where no workload opens a connection (process and micro
 * workloads keep no setting of it) and for a load generator that cannot close after each request.
 */
function checkKeepAlive(
  groups: readonly Planned[],
  overrides: Partial<RunSettings>,
  requested: RunOptions["loadGenerator"],
): void {
  if (
    overrides.keepAlive === false && !groups.some((g) => g.workload.kind === "http" || g.workload.kind === "websocket")
  ) {
    const names = [...new Set(groups.map((g) => `${g.workload.name}: ${g.workload.kind}`))].join(", ");
    throw new RequestError(
      "settings.keepAlive",
      `off: no selected workload opens a connection (${names}); name HTTP workloads with {workloads}`,
    );
  }
  const closing = groups.filter((g) => g.settings.keepAlive === false);
  const ws = closing.find((g) => g.workload.kind === "websocket");
  if (ws) {
    throw new RequestError(
      "settings.keepAlive",
      `off: ${ws.workload.name} is a WebSocket workload, whose messages share one connection; ` +
        "name HTTP workloads with {workloads}",
    );
  }
  const generator = typeof requested === "string" ? builtinLoadGenerators.find((g) => g.name === requested) : requested;
  if (closing.some((g) => g.workload.kind === "http") && generator && !generator.closesConnections) {
    const can = builtinLoadGenerators.filter((g) => g.closesConnections).map((g) => g.name).join(", ");
    throw new RequestError(
      "settings.keepAlive",
      `off: ${generator.name} cannot send each request on a new connection (these can: ${can})`,
    );
  }
}

/** The interface and port servers will listen on: well-formed, and free here right now. */
function checkEndpoint(host: string | undefined, port: number | undefined): void {
  if (host !== undefined && host.trim() === "") throw new RequestError("host", "needs an address");
  if (port !== undefined) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new RequestError("port", `must be a whole number from 1 to 65535, got ${JSON.stringify(port)}`);
    }
    if (FETCH_BAD_PORTS.has(port)) {
      throw new RequestError("port", `${port} is a port fetch refuses to connect to; choose another`);
    }
  }
  const address = host ?? "127.0.0.1";
  const why = cannotListen(address, port ?? 0);
  if (why === null) return;
  if (port !== undefined && why.startsWith("port")) throw new RequestError("port", why.replace(/^port /, ""));
  throw new RequestError("host", `: cannot listen on ${address}: ${why}`);
}

function checkReadable(field: string, path: string): void {
  try {
    if (!Deno.statSync(path).isFile) throw new RequestError(field, `: ${path} is not a file`);
  } catch (error) {
    if (error instanceof RequestError) throw error;
    const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message.split(" (os")[0];
    throw new RequestError(field, `: cannot read ${path} (${why})`);
  }
}

/**
 * Refuses, before anything runs, connections the machine cannot carry
 * (EMFILE, or no local port half-way).
 *
 * @param groups The planned workload × variants.
 */
export async function checkConnections(groups: readonly Planned[]): Promise<void> {
  const most = Math.max(
    0,
    ...groups.filter((g) => g.workload.kind === "http" || g.workload.kind === "websocket")
      .map((g) => g.settings.connections),
  );
  const ceiling = await connectionCeiling();
  if (ceiling && most > ceiling.max) {
    throw new RequestError(
      "settings.connections",
      `${most}: this machine can carry at most ${ceiling.max} (${ceiling.why})`,
    );
  }
}

/** The request field of each role of a multi-host suite. */
const HOST_FIELDS = { server: "hosts.server", client: "hosts.clients", db: "hosts.db" } as const;

/**
 * Connects every other machine before anything is provisioned: a host that
 * does not resolve or does not accept ssh is bad input, naming its field.
 *
 * @param topology The other machines.
 * @param signal Stops connecting.
 */
export async function connectHosts(topology: Topology, signal: AbortSignal): Promise<void> {
  await Promise.all(
    hostsOf(topology).map(async (host) => {
      try {
        await host.connect(signal);
      } catch (error) {
        signal.throwIfAborted();
        if (error instanceof UsageError) throw error;
        throw new RequestError(HOST_FIELDS[host.role], `: ${(error as Error).message}`, { cause: error });
      }
    }),
  );
}
