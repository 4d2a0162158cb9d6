// The test tasks' runner. `deno task test` runs every tier, the unit tier first; `deno task test:unit` the unit tier
// alone. Unit tests are on fixed data, in-process, and run with neither network nor subprocess permission, so a test
// there that starts a server, a runtime or any other process, or touches the network, fails instead of slowing the
// tier down. Which tier a file is in is where it sits (tests/_tiers.ts). Arguments after the task's name go to
// `deno test` (files, `--filter`, ...).
//
// Tests that need what this machine lacks are ignored (tests/_needs.ts) and append why to a log this runner names in
// RTBENCH_TEST_SKIPS; after the tests end, the runner lists the slowest files, then each skipped test and why, and
// exits with the first failing run's code.
import { type Skip, SKIP_LOG_ENV } from "./_needs.ts";
import { filesOf, runsAlone, type Tier } from "./_tiers.ts";
import { LANES_ENV } from "./_lanes.ts";
import { CALIBRATION_ENV, measureMachineSpeed } from "../runners/drivers/calibration.ts";
import { cacheDir } from "../runners/platform/mod.ts";

/** Permissions of the whole suite: it starts servers, runtimes and load generators. */
export const ALL_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
];

/** Permissions of the unit tier: no `--allow-net`, no `--allow-run`. */
export const UNIT_PERMISSIONS: readonly string[] = ["--allow-read", "--allow-write", "--allow-env", "--allow-sys"];

/** How many of the slowest files the run ends by listing. */
export const SLOWEST = 10;

/** Reads the skip log: one JSON object per line. */
export function readSkips(text: string): Skip[] {
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Skip);
}

/** The lines that end the run: every skipped test and why, or nothing when none was. */
export function skipReport(skips: readonly Skip[]): string {
  if (skips.length === 0) return "";
  const lines = skips.map((s) => `  ${s.test}\n    needs: ${s.why}`);
  return `Skipped on this machine: ${skips.length} test${skips.length === 1 ? "" : "s"} ` +
    `(under CI=true each fails instead)\n${lines.join("\n")}\n`;
}

/** Seconds each test file's tests took, from `deno test`'s JUnit report, slowest first. */
export function fileTimes(junit: string): [string, number][] {
  const times = new Map<string, number>();
  for (const m of junit.matchAll(/<testcase [^>]*?classname="([^"]+)" time="([\d.]+)"/g)) {
    const file = m[1].replace(/^\.\//, "");
    times.set(file, (times.get(file) ?? 0) + Number(m[2]));
  }
  return [...times].sort((a, b) => b[1] - a[1]);
}

/** The lines listing the `n` slowest files and the whole run's time, so the suite's budget stays in view. */
export function slowestReport(times: readonly [string, number][], totalSec: number, n = SLOWEST): string {
  if (times.length === 0) return "";
  const width = Math.max(...times.slice(0, n).map(([f]) => f.length));
  const lines = times.slice(0, n).map(([f, s]) => `  ${f.padEnd(width)}  ${formatDuration(s)}`);
  return `Slowest files (of ${times.length}; the whole run took ${formatDuration(totalSec)}):\n${lines.join("\n")}\n`;
}

function formatDuration(sec: number): string {
  if (sec < 60) return `${sec.toFixed(1)} s`;
  return `${Math.floor(sec / 60)} min ${String(Math.round(sec % 60)).padStart(2, "0")} s`;
}

/** Where each test file's time in the last run that ran it is kept, for the next run's order. */
export function timesFile(): string {
  return `${cacheDir()}/test-times.json`;
}

/** The seconds each file took when it last ran, from `path`; none where it is missing or unreadable. */
export async function readTimes(path: string): Promise<Record<string, number>> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(path));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Keeps `times` in `path` over the files' earlier times; the times of files not run this time stay. */
export async function keepTimes(path: string, times: readonly [string, number][]): Promise<void> {
  const kept = { ...await readTimes(path), ...Object.fromEntries(times.map(([f, s]) => [f, Math.round(s * 10) / 10])) };
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(kept, null, 1) + "\n");
}

/**
 * `files` in the order the lanes finish soonest: the slowest first by their last times (a file started last that runs
 * long leaves the other lane idle), a file never timed before them all, as it may be any length; ties keep their order.
 */
export function longestFirst(files: readonly string[], times: Readonly<Record<string, number>>): string[] {
  const known = (f: string) => typeof times[f] === "number" && Number.isFinite(times[f]);
  return [...files.filter((f) => !known(f)), ...files.filter(known).sort((a, b) => times[b] - times[a])];
}

/**
 * One `deno test` run: its permissions, its flags, the files it is given (none: every test file `deno test` finds),
 * and whether its files run in parallel (`deno test --parallel`; how many at a time: {@linkcode jobsOf}).
 */
export interface Part {
  permissions: readonly string[];
  flags: readonly string[];
  files: string[];
  parallel: boolean;
}

/**
 * How many files of `part` run at once (`DENO_JOBS`), or undefined for `deno test`'s own choice (one a CPU): the
 * end-to-end and acceptance files one more than the CPUs, as they wait on servers, runtimes and databases starting
 * (two at a time on two CPUs kept about 1.65 of them busy); the unit tier's, in one process, one a CPU. A `DENO_JOBS`
 * the user set is kept.
 */
export function jobsOf(part: Part, cpus: number, given: string | undefined): string | undefined {
  if (given || !part.parallel || part.permissions === UNIT_PERMISSIONS) return given;
  return String(cpus + 1);
}

/** The paths `--ignore=a,b` flags name: files, or folders whose files are all left out. */
function ignoredBy(flags: readonly string[]): (file: string) => boolean {
  const paths = flags.filter((f) => f.startsWith("--ignore=")).flatMap((f) => f.slice("--ignore=".length).split(","))
    .map((p) => p.replace(/^\.\//, "").replace(/\/+$/, "")).filter((p) => p !== "");
  return (file) => paths.some((p) => file === p || file.startsWith(`${p}/`));
}

/**
 * The `deno test` runs of a command line. `--unit`: the unit tier alone. Named test files: those, several at a time but
 * for the files that run alone, with every permission; other arguments (folders, globs): as given, one file at a time.
 * Neither: the unit tier under its own permissions, then the rest (several at a time but for the files that run alone,
 * which follow), so the whole suite keeps the unit tier's rule. The files `--ignore` names are left out of the lists
 * here: `deno test` applies a list of them to named files only in part.
 */
export async function partsOf(unit: boolean, rest: readonly string[]): Promise<Part[]> {
  const named = rest.filter((a) => !a.startsWith("-"));
  const permissions = unit ? UNIT_PERMISSIONS : ALL_PERMISSIONS;
  const flags = rest.filter((f) => !f.startsWith("--ignore=") && !named.includes(f));
  if (named.length > 0) {
    if (unit || !named.every((f) => f.endsWith("_test.ts"))) {
      return [{ permissions, flags: rest, files: [], parallel: unit }];
    }
    return await sharedThenAlone(flags, named.map((f) => f.replace(/^\.\//, "")));
  }
  const ignored = ignoredBy(rest);
  const listed = async (...tiers: Tier[]) =>
    (await Promise.all(tiers.map((t) => filesOf(t)))).flat()
      .filter((f) => !ignored(f));
  const parts: Part[] = [{ permissions: UNIT_PERMISSIONS, flags, files: await listed("unit"), parallel: true }];
  if (!unit) parts.push(...await sharedThenAlone(flags, await listed("e2e", "acceptance")));
  return parts;
}

/** `files` in two runs with every permission: several at a time, then those that run alone; no run without a file. */
async function sharedThenAlone(flags: readonly string[], files: readonly string[]): Promise<Part[]> {
  const alone = new Set((await Promise.all(files.map(async (f) => await runsAlone(f) ? f : null))).filter((f) => f));
  return [
    { permissions: ALL_PERMISSIONS, flags, files: files.filter((f) => !alone.has(f)), parallel: true },
    { permissions: ALL_PERMISSIONS, flags, files: files.filter((f) => alone.has(f)), parallel: false },
  ].filter((p) => p.files.length > 0); // a run with no file would run every test file `deno test` finds
}

/**
 * The files to type-check once before the runs, which then run with `--no-check`; null when each run checks its own
 * (one run, or one given folders instead of files). `deno test` checks each run's files as a graph of its own, so
 * over the suite's parts the modules they share were checked again in every part.
 */
export function checkedOnce(parts: readonly Part[]): string[] | null {
  if (parts.length < 2 || parts.some((p) => p.files.length === 0)) return null;
  return [...new Set(parts.flatMap((p) => p.files))];
}

async function main(args: string[]): Promise<number> {
  const unit = args[0] === "--unit";
  const rest = unit ? args.slice(1) : args;
  const log = await Deno.makeTempFile({ prefix: "rtbench-skips-" });
  const junit = await Deno.makeTempFile({ prefix: "rtbench-junit-", suffix: ".xml" });
  // Ctrl-C reaches `deno test` too (same process group): wait for it, then still list what was skipped.
  const ignore = () => {};
  Deno.addSignalListener("SIGINT", ignore);
  const start = performance.now();
  let code = 0;
  const times: [string, number][] = [];
  try {
    // The machine measured once, as a program running suites one after another would (RTBENCH_CALIBRATION), instead
    // of a second in every suite a test starts; machine_identity_test shows a suite measuring its own.
    const calibration = unit
      ? undefined
      : Deno.env.get(CALIBRATION_ENV) || JSON.stringify(await measureMachineSpeed(null));
    const last = await readTimes(timesFile());
    const parts = (await partsOf(unit, rest)).map((p) => p.parallel ? { ...p, files: longestFirst(p.files, last) } : p);
    const checkOnce = checkedOnce(parts);
    if (checkOnce) {
      const checked = await new Deno.Command(Deno.execPath(), {
        args: ["check", ...checkOnce],
        stdin: "null",
        stdout: "inherit",
        stderr: "inherit",
      }).spawn().status;
      if (!checked.success) return checked.code;
    }
    for (const part of parts) {
      const jobs = jobsOf(part, navigator.hardwareConcurrency, Deno.env.get("DENO_JOBS"));
      // Files that run at once take lanes, so that their suites place servers on different CPUs (tests/_lanes.ts).
      const lanes = part.parallel ? await Deno.makeTempDir({ prefix: "rtbench-lanes-" }) : undefined;
      const status = await new Deno.Command(Deno.execPath(), {
        args: [
          "test",
          ...part.permissions,
          ...(checkOnce ? ["--no-check"] : []),
          ...(part.parallel ? ["--parallel"] : []),
          `--junit-path=${junit}`,
          ...part.flags,
          ...part.files,
        ],
        env: {
          [SKIP_LOG_ENV]: log,
          ...(calibration ? { [CALIBRATION_ENV]: calibration } : {}),
          ...(lanes ? { [LANES_ENV]: lanes } : {}),
          ...(jobs ? { DENO_JOBS: jobs } : {}),
        },
        stdin: "inherit",
        stdout: "inherit",
        stderr: "inherit",
      }).spawn().status.finally(() => lanes && Deno.remove(lanes, { recursive: true }));
      times.push(...fileTimes(await Deno.readTextFile(junit)));
      if (status.signal) return 128 + (status.signal === "SIGINT" ? 2 : 15);
      // Every part runs, so one failure in the unit tier still shows how the rest fares.
      if (code === 0) code = status.code;
    }
    await keepTimes(timesFile(), times).catch(() => {});
    const slowest = slowestReport(times.sort((a, b) => b[1] - a[1]), (performance.now() - start) / 1000);
    if (slowest && !unit) console.log(slowest);
    const report = skipReport(readSkips(await Deno.readTextFile(log)));
    if (report) console.log(report);
    return code;
  } finally {
    Deno.removeSignalListener("SIGINT", ignore);
    await Deno.remove(log);
    await Deno.remove(junit);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
