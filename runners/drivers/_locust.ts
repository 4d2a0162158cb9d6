// Locust for --load-generator locust: what its workers print, how they are started, and Locust itself in a
// virtual environment rtbench makes: `python3 -m venv` in rtbench's cache, then pip installs the pinned
// release into it. Made once per Locust release and Python minor version, then reused; an unfinished install is
// never taken for a finished one (it is built beside the final directory and renamed into place).

import { cacheDir } from "../../adapters/mod.ts";
import { runCommand, which } from "../platform/mod.ts";

/** The Locust release rtbench installs and records. */
export const LOCUST_VERSION = "2.47.0";

/**
 * Locust's HTTP client, pinned too: the locustfile turns off its resending of a request whose connection closed
 * unanswered (a dropped connection is an error, as in the engine), which is this release's internals.
 */
export const GEVENTHTTPCLIENT_VERSION = "2.6.1";

/** A Python with Locust: its interpreter, version and where its packages are. */
export interface LocustPython {
  /** The venv's interpreter. */
  readonly python: string;
  /** The Python version it runs (`3.11.2`). */
  readonly pythonVersion: string;
  /** The venv's `site-packages`, staged to load machines as it is. */
  readonly sitePackages: string;
}

let made: Promise<LocustPython> | undefined;

/** Why Locust cannot run here, or null: it needs `python3` with its `venv` module. */
export function locustMissing(): string | null {
  return which("python3") === null ? "python3 is not installed (apt-get install python3 python3-venv)" : null;
}

async function step(argv: string[], what: string, signal?: AbortSignal): Promise<string> {
  const out = await runCommand(argv, {
    timeoutMs: 600_000,
    signal,
    keepBytes: 1 << 16,
    env: { PIP_DISABLE_PIP_VERSION_CHECK: "1", PIP_NO_INPUT: "1" },
    // Provisioning: pip reaches its index with the user's proxies, CA bundles and pip configuration.
    purpose: "registry",
    role: "provision",
  });
  signal?.throwIfAborted();
  if (!out.success) {
    const why = out.timedOut ? "timed out" : (out.stderr + out.stdout).trim().split("\n").slice(-2).join(" ");
    throw new Error(`Cannot install Locust ${LOCUST_VERSION} for --load-generator locust: ${what}: ${why}`);
  }
  return out.stdout.trim();
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The venv with Locust, made on first use (pip from PyPI, the pinned release), then taken from the cache. */
export function locustPython(signal?: AbortSignal): Promise<LocustPython> {
  made ??= (async () => {
    const missing = locustMissing();
    if (missing) throw new Error(`Cannot run --load-generator locust: ${missing}`);
    const version = await step(
      ["python3", "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
      "python3 --version",
      signal,
    );
    const minor = version.split(".").slice(0, 2).join(".");
    const dir = `${cacheDir()}/tools/locust-${LOCUST_VERSION}-geventhttpclient-${GEVENTHTTPCLIENT_VERSION}-py${minor}`;
    const done = `${dir}/.rtbench-installed`;
    if (!(await exists(done))) {
      // Its own name: two suites in one process (test files at once) share the pid.
      const partial = `${dir}.partial-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
      await Deno.remove(partial, { recursive: true }).catch(() => {});
      await Deno.mkdir(`${cacheDir()}/tools`, { recursive: true });
      try {
        await step(["python3", "-m", "venv", partial], "python3 -m venv (apt-get install python3-venv)", signal);
        await step(
          [
            `${partial}/bin/python`,
            "-m",
            "pip",
            "install",
            "--quiet",
            `locust==${LOCUST_VERSION}`,
            `geventhttpclient==${GEVENTHTTPCLIENT_VERSION}`,
          ],
          "pip install",
          signal,
        );
        // Another rtbench may have finished the same install meanwhile: either copy is whole.
        if (!(await exists(done))) {
          await Deno.remove(dir, { recursive: true }).catch(() => {});
          await Deno.rename(partial, dir);
          await Deno.writeTextFile(done, `locust ${LOCUST_VERSION}, python ${version}\n`);
        }
      } finally {
        await Deno.remove(partial, { recursive: true }).catch(() => {});
      }
    }
    const installed = await step(
      [`${dir}/bin/python`, "-c", "import locust, geventhttpclient; print(locust.__version__)"],
      "import locust",
      signal,
    );
    if (installed !== LOCUST_VERSION) {
      throw new Error(`Cannot run --load-generator locust: ${dir} holds Locust ${installed}, not ${LOCUST_VERSION}`);
    }
    return {
      python: `${dir}/bin/python`,
      pythonVersion: version,
      sitePackages: `${dir}/lib/python${minor}/site-packages`,
    };
  })();
  made.catch(() => made = undefined);
  return made;
}

/** The prefix of the line each worker prints. */
const MARKER = "RTBENCH_LOCUST ";

/** Counts of one part of a worker's run (warm-up, measured window, after it). */
export interface PartCounts {
  readonly responses: number;
  readonly valid: number;
  readonly non2xx: number;
  readonly mismatches: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly bytes: number;
}

/** What one Locust worker printed (see `_locustfile.py`). */
export interface LocustWorkerOutput {
  readonly windowStartMs: number | null;
  readonly durationMs: number;
  readonly sent: number;
  readonly parts: { readonly warmup: PartCounts; readonly window: PartCounts; readonly late: PartCounts };
  readonly histogram: readonly [number, number][];
  readonly endpoints: readonly {
    readonly responses: number;
    readonly valid: number;
    readonly warmupValid: number;
    readonly histogram: readonly [number, number][];
  }[];
  readonly phases: readonly {
    readonly responses: number;
    readonly valid: number;
    readonly missedConnections: number;
    readonly missedClient: number;
    readonly histogram: readonly [number, number][];
  }[];
  readonly firstMismatch: string | null;
  readonly cpuPercent: number | null;
  /** The highest CPU usage Locust's own CPU warning reported (above 90% of a core), or null when it did not warn. */
  readonly cpuWarning: number | null;
  readonly users: number;
  /** Requests still out (sent, neither answered nor failed) when the worker stopped: never answered. */
  readonly outstanding?: number;
}

/** The JSON line a worker printed, or an error naming the worker and the end of what it said. */
export function parseWorker(name: string, stdout: string, stderr: string): LocustWorkerOutput {
  const line = stdout.split("\n").find((l) => l.startsWith(MARKER));
  if (!line) {
    const why = (stderr + stdout).trim().split("\n").filter(Boolean).slice(-3).join(" ") || "(no output)";
    throw new Error(`${name} printed no result: ${why}`);
  }
  return JSON.parse(line.slice(MARKER.length)) as LocustWorkerOutput;
}

/** A worker's argv (after the interpreter): connect to the master, take its users. */
export function workerArgs(file: string, master: string, port: number): string[] {
  return [
    "-m",
    "locust",
    "-f",
    file,
    "--worker",
    "--master-host",
    master,
    "--master-port",
    String(port),
    "--loglevel",
    "WARNING",
  ];
}
