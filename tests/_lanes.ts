// Two test files that run at once (`deno test --parallel`, tests/_run.ts) place their suites' servers and load with the
// CPUs swapped against each other. Left to the default split every suite puts its server on the first half of the
// CPUs, so two files' servers, databases and setup queued on CPU 0 while CPU 1 held only the load (98% against 27%).
import { allowedCpus, CPUS_ENV, type CpuSplit, splitCpus } from "../runners/platform/mod.ts";
import type { RunOptions } from "../runners/suite/request.ts";

/** The variable naming the directory where suites running at once take lanes; tests/_run.ts sets it. */
export const LANES_ENV = "RTBENCH_TEST_LANES";

/** A lane a suite holds while it runs: its CPUs (undefined: the default split), and how to give it back. */
export interface Lane {
  /** The server's and the load's CPUs. */
  readonly cpus: CpuSplit | undefined;
  /** Gives the lane back. */
  release(): Promise<void>;
}

const NO_LANE: Lane = { cpus: undefined, release: () => Promise.resolve() };

/**
 * Takes the default lane, else the swapped one, else none (a third suite at once keeps the default split): a lane is
 * a directory made in `dir`, which only one maker gets. The swapped lane trades `split`'s server and load CPUs.
 */
export async function takeLane(
  dir: string | undefined = Deno.env.get(LANES_ENV),
  split: () => Promise<CpuSplit> = async () => splitCpus(await allowedCpus()),
): Promise<Lane> {
  if (!dir) return NO_LANE;
  for (const lane of ["default", "swapped"]) {
    const path = `${dir}/${lane}`;
    try {
      await Deno.mkdir(path);
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) continue;
      throw error;
    }
    const { server, client } = await split();
    const swapped = lane === "swapped" && server !== null && client !== null;
    return { cpus: swapped ? { server: client, client: server } : undefined, release: () => Deno.remove(path) };
  }
  return NO_LANE;
}

/** Flags that place the server themselves, or on other machines: a suite given one keeps its own placement. */
const PLACING = ["--server-cpus", "--server-host", "--client-host", "--db-host", "--pairing", "--aa"];

/** Whether an in-process suite places its servers itself (the options PLACING's flags set): CPUs, hosts, duet. */
export function placesItself(options: RunOptions): boolean {
  return options.cpus !== undefined || options.hosts !== undefined || options.pairing === "duet" ||
    options.settings?.serverCpus !== undefined;
}

/** The environment a command line runs with in `lane`: {@linkcode CPUS_ENV}, unless its flags place the server. */
export function laneEnv(lane: Lane, args: readonly string[]): Record<string, string> {
  if (!lane.cpus || args.some((a) => PLACING.includes(a.split("=")[0]))) return {};
  return { [CPUS_ENV]: `${lane.cpus.server}/${lane.cpus.client}` };
}
