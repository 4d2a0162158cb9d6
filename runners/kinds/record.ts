/**
 * What a kind runner hands back for one record, and the errors that end a
 * record in a named phase. Shared by every kind runner and the suite.
 *
 * @module
 */

import type { ResolvedRuntime } from "../../adapters/mod.ts";
import type {
  Check,
  Fact,
  HttpWorkload,
  OptionValues,
  RunSettings,
  Workload,
  WorkloadBase,
  WorkloadSession,
} from "../../workloads/mod.ts";
import type { LoadGenerator, LoadGeneratorChoice, Topology } from "../drivers/mod.ts";
import type {
  CpuSets,
  Headline,
  LoadGeneratorInfo,
  Phase,
  ProcessEnvironment,
  ResourceSummary,
  RunRecord,
  Warning,
} from "../schema/mod.ts";
import type { HookTimeouts } from "./timeouts.ts";

/**
 * What every kind runner gets for one workload × variant × runtime. Kinds that start a server see more
 * ({@linkcode ServedRecordContext}), and HTTP its load generators ({@linkcode HttpRecordContext}); the other kinds
 * see none of that.
 */
export interface RecordContext<W extends WorkloadBase = Workload> {
  /** The workload. */
  readonly workload: W;
  /** Variant being measured. */
  readonly variant: string;
  /** The runtime. */
  readonly runtime: ResolvedRuntime;
  /** Effective settings. */
  readonly settings: RunSettings;
  /** Workload options. */
  readonly options: OptionValues;
  /** The variant's session from `setup` (empty when there is none). */
  readonly session: WorkloadSession;
  /** The workload's private temporary directory, shared by the variant's runtimes. */
  readonly tempDir: string;
  /** A private, empty directory for this record only (staged servers, scratch files). */
  readonly workDir: string;
  /** A directory every variant of the workload shares within the suite (state one variant prepares for the next). */
  readonly sharedDir?: string;
  /** `node_modules` holding the workload's dependencies, when it declares any. */
  readonly nodeModules: string | undefined;
  /** CPU sets of server (code under test) and client (load generator). */
  readonly cpus: CpuSets;
  /** Seconds each workload hook may take, over the defaults (`HOOK_TIMEOUTS_SEC`). */
  readonly hookTimeoutsSec?: Partial<HookTimeouts>;
  /** Aborted when the suite is interrupted. */
  readonly signal: AbortSignal;
  /** Reports the phase and run being worked on. */
  onPhase?(phase: Phase, run: number): void;
}

/** What a kind that starts a server (HTTP, WebSocket) gets besides: where the server listens, and on which machines. */
export interface ServedRecordContext<W extends WorkloadBase = Workload> extends RecordContext<W> {
  /** Interface servers bind and the harness connects to (`--host`). @default {"127.0.0.1"} */
  readonly host?: string;
  /** Port every server listens on (`--port`); absent means a free port chosen per server. */
  readonly port?: number;
  /** Other machines that run the servers, the load or the database (`--server-host`, ...); absent: this one. */
  readonly topology?: Topology;
  /**
   * The fixed rate of `--cpu-rate` where the variant decides it while it runs (keep-alive off without `--cpu-rate`):
   * null until decided, and no fixed-rate window until then; absent: `settings.cpuRate`.
   */
  readonly cpuRateChoice?: CpuRateChoice;
}

/** A fixed rate the variant decides once every runtime has a run (see `chosenCpuRate` in `cpu_rate.ts`). */
export interface CpuRateChoice {
  /** Requests (messages) per second, or null while undecided. */
  rate: number | null;
}

/** What the HTTP kind gets besides a served record's: its load generators. */
export interface HttpRecordContext<W extends Workload = HttpWorkload> extends ServedRecordContext<W> {
  /** The HTTP load generator. */
  readonly loadGenerator: LoadGenerator;
  /** Generators to choose from per workload (`--load-generator`); without it, `loadGenerator` is used. */
  readonly loadGenerators?: LoadGeneratorChoice;
}

/** What the suite builds for any record: every kind's part, of which each kind's runner is typed to see its own. */
export type SuiteRecordContext = HttpRecordContext<Workload>;

/** Everything a kind's variant check (HTTP parity) gets: one workload × variant, every runtime that could be had. */
export interface VariantContext<W extends WorkloadBase = Workload>
  extends Omit<ServedRecordContext<W>, "runtime" | "onPhase"> {
  /** The runtimes, keyed by what was requested (`bun@1.2.0`). */
  readonly runtimes: ReadonlyMap<string, ResolvedRuntime>;
}

/** What a variant check concluded for one runtime: checks to record, and why it is invalid, if it is. */
export interface VariantVerdict {
  /** Checks recorded on the runtime's record. */
  readonly checks: readonly Check[];
  /** Why the runtime's record is invalid, or null. */
  readonly invalid: string | null;
}

/** The part of a record a kind runner fills in. */
export interface RecordOutcome {
  /** Server or process command, binary first. */
  command: string[] | null;
  /** Load generator or driver, for HTTP and WebSocket workloads. */
  loadGenerator: LoadGeneratorInfo | null;
  /** CPU sets used. */
  cpus: CpuSets;
  /** Verification checks, in order. */
  checks: Check[];
  /** Facts to record. */
  facts: Record<string, Fact>;
  /** The ranking figure. */
  headline: Headline;
  /** Finished runs. */
  runs: RunRecord[];
  /** Warnings. */
  warnings: Warning[];
  /** Resources of server and load generator over the measured runs. */
  resources?: ResourceSummary | null;
  /** Every kind of process the record started and the environment it got (filled in by the run loop). */
  processes?: ProcessEnvironment[];
}
