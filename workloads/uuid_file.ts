/**
 * `uuid-file`: `GET /?q1=..&q2=..&q3=..&q4=..` parses the four query
 * parameters into an object, writes its JSON to `<uuid v4>.json` in a data
 * directory, reads the file back, deletes it and returns its content as
 * `application/json`. Measures query parsing, JSON and the runtime's file APIs,
 * and is verified for its side effects: the file is seen being created,
 * written and deleted, and the directory is empty after every run.
 *
 * @module
 */

import { builtinAdapters, serverFile } from "../adapters/mod.ts";
import { readProcText } from "../runners/platform/mod.ts";
import {
  type DatedFileEvent,
  type DirectoryWatcher,
  directoryWatcher,
  type FileEventKind,
  type FileEventLog,
  logFileEvents,
} from "./_file_events.ts";
import { freshDir, spreadingParent } from "./_fresh_dir.ts";
import { randomText, seededRandom } from "./_random.ts";
import { sideEffectChecks, unansweredRequests } from "./_side_effects.ts";
import { windowCount, windowEffectCheck } from "./_window_effects.ts";
import type {
  AfterRunContext,
  Check,
  HttpRequestSpec,
  HttpWorkload,
  RunSettings,
  ServerSource,
  Skip,
  VerifyContext,
  WorkloadContext,
  WorkloadSession,
} from "./types.ts";

/** Environment variable that gives the servers their data directory. */
export const UUID_FILE_DATA_DIR_ENV = "RTBENCH_DATA_DIR";

/**
 * 001's variants: `no-params` sends `GET /` to the same servers (every key then null), as the article did to tell
 * query parsing from the rest; `url-parse` parses with Node's legacy `url.parse` + `querystring.parse`, as the
 * article rewrote its servers, on every JavaScript runtime (they all ship `node:url`).
 */
const NO_PARAMS = "no-params";
const URL_PARSE = "url-parse";

/** The file API each runtime's server uses, for the record. */
const FILE_APIS: Readonly<Record<string, string>> = {
  deno: "Deno.writeTextFile, Deno.readTextFile, Deno.remove",
  node: "node:fs/promises writeFile, readFile, unlink",
  bun: "Bun.write, BunFile.text, BunFile.delete",
  go: "os.WriteFile, os.ReadFile, os.Remove",
  rust: "tokio::fs write, read, remove_file",
};

// Letters and digits mostly, plus characters that need percent-encoding in the
// query or escaping in JSON, and multi-byte UTF-8 so content-length is tested.
const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + ' -_.~+&=/?#%"\\<é€😀';
const REQUESTS = 256;
const SEED = 0x75756964;
const UUID_JSON = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.json$/;
// How long a file's last events may lag behind the response.
const EVENT_WAIT_MS = 5000;

type Query = { q1: string; q2: string; q3: string; q4: string };

/** The request for one set of parameters, with the exact body every server must return. */
function requestFor(query: Query): HttpRequestSpec {
  const search = Object.entries(query).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  return {
    method: "GET",
    path: `/?${search}`,
    expect: { status: 200, contentType: "application/json", body: JSON.stringify(query) },
  };
}

async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names;
}

async function removeAll(dir: string, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => Deno.remove(`${dir}/${name}`, { recursive: true }).catch(() => {})));
}

/** The mount holding `path`: where, its filesystem type and options (tmpfs and ext4 differ a lot; so does discard). */
async function mountOf(path: string): Promise<{ point: string; type: string; options: string } | null> {
  const mounts = await readProcText("/proc/self/mounts");
  if (!mounts) return null;
  const real = await Deno.realPath(path);
  let best: { point: string; type: string; options: string } | null = null;
  for (const line of mounts.split("\n")) {
    const [, rawPoint, type, options] = line.split(" ");
    if (!rawPoint || !type) continue;
    // The mount table escapes spaces and other bytes as octal (\040).
    const point = rawPoint.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));
    const inside = point === "/" || real === point || real.startsWith(`${point}/`);
    if (inside && (!best || point.length >= best.point.length)) best = { point, type, options: options ?? "" };
  }
  return best;
}

/** Filesystems that keep their files in memory rather than on a disk. */
const IN_MEMORY = ["tmpfs", "ramfs"];

/**
 * Sends one request with the data directory watched and checks that exactly
 * one `<uuid v4>.json` file was created, written, read back and deleted for it
 * (as far as the watcher can see), and that the body echoes the parameters.
 */
async function verifyFileLifecycle(ctx: VerifyContext, dataDir: string, watcher: DirectoryWatcher): Promise<Check[]> {
  const query: Query = { q1: "verify", q2: ctx.runtime, q3: "a b+c", q4: String(ctx.exchanges.length) };
  // URLSearchParams writes spaces as "+", the traffic as "%20": servers must decode both.
  const request: HttpRequestSpec = { ...requestFor(query), path: `/?${new URLSearchParams(query)}` };
  const { result: x, files } = await watcher.watch(dataDir, () => ctx.send(request), EVENT_WAIT_MS, ctx.signal);
  const file = files.length === 1 ? files[0] : undefined;
  const checks: Check[] = [
    {
      name: "verification request body echoes q1..q4",
      passed: x.status === 200 && x.body === request.expect.body,
      expected: request.expect.body!,
      actual: x.body.slice(0, 500),
    },
    { name: "files created for one request", passed: files.length === 1, expected: 1, actual: files.length },
    {
      name: "file name is <uuid v4>.json",
      passed: !!file && UUID_JSON.test(file.name),
      expected: "<uuid v4>.json",
      actual: files.map((f) => f.name).join(", ") || null,
    },
  ];
  const order: [FileEventKind, string][] = [["write", "file written"], ["read", "file read back"], [
    "delete",
    "file deleted",
  ]];
  let after = file?.kinds.indexOf("create") ?? -1;
  for (const [kind, name] of order) {
    if (!watcher.observes.includes(kind)) continue;
    // Each step must follow the one before it: written after created, read after written, deleted last.
    const at = file && after >= 0 ? file.kinds.indexOf(kind, after + 1) : -1;
    checks.push({ name: `${name} (${watcher.name})`, passed: at > after, expected: true, actual: at > after });
    after = at;
  }
  const left = await filesIn(dataDir);
  checks.push({
    name: "files left after the verification request",
    passed: left.length === 0,
    expected: 0,
    actual: left.length,
  });
  return checks;
}

/**
 * Files created and deleted in the measured window, counted by inotifywait and dated by its ticks (see
 * `logFileEvents`), against the window's valid responses (one file written and deleted per response): with the load
 * engine's windows, between those responses less the requests in flight at the window's opening and those responses
 * plus the requests in flight at its closing and the run's unanswered ones (see `_window_effects.ts`); with another
 * generator, whose window rtbench dates around it, within two requests per connection plus 25%.
 * `filesWrittenPerSecond` is the window's estimated count over its length.
 */
function countedFiles(run: AfterRunContext, events: readonly DatedFileEvent[], settings: RunSettings): Check[] {
  const window = run.window!;
  const inFlight = settings.connections * settings.pipelining;
  const rule = { inFlight, unanswered: unansweredRequests(run, inFlight * (settings.warmupSec > 0 ? 2 : 1)) };
  const perSecond = (n: number) => Math.round(n / (window.durationMs / 1000) * 100) / 100;
  const [created, deleted] = (["create", "delete"] as const).map((kind) =>
    windowCount(events.filter((e) => e.kind === kind), window)
  );
  run.addFigures?.({
    filesWrittenPerSecond: perSecond(created.estimate),
    filesDeletedPerSecond: perSecond(deleted.estimate),
  });
  const exact = window.processes !== undefined;
  return [
    windowEffectCheck(run, created, { ...rule, what: "files created" }, exact),
    windowEffectCheck(run, deleted, { ...rule, what: "files deleted" }, exact),
  ];
}

/** Where the data directory lives, for the record: its filesystem, in memory or on a disk, the mount, and its reset. */
async function dataDirFacts(dataDir: string, reset: string): Promise<Record<string, string | null>> {
  const mount = await mountOf(dataDir);
  return {
    dataDirFilesystem: mount?.type ?? null,
    dataDirStorage: mount ? (IN_MEMORY.includes(mount.type) ? "memory" : "disk") : null,
    dataDirMount: mount ? `${mount.point} (${mount.type}, ${mount.options})` : null,
    dataDirReset: reset,
  };
}

/**
 * The query-parameters-plus-UUID-file workload. Every runtime gets the same
 * 256 requests with varying, seeded parameter values (percent-encoded
 * punctuation, JSON-escaped quotes and backslashes, multi-byte UTF-8), each
 * with its exact expected body.
 *
 * Records carry the figures `filesWrittenPerSecond` and `filesDeletedPerSecond`,
 * counted with inotifywait over the measured window (where it is installed)
 * and checked against the valid responses, a check per run that the data
 * directory was left empty, and the facts `fileApi`, `dataDirFilesystem`, `dataDirStorage` (memory or disk),
 * `dataDirMount` and `dataDirReset` (every run starts from a new directory on a synced filesystem, on ext4 in a block
 * group of its own).
 *
 * @example Read the first request and its expected body
 * ```ts
 * import { uuidFile } from "./uuid_file.ts";
 * const ctx = { variant: "default", options: {}, settings: {} as never, tempDir: "", signal: new AbortController().signal };
 * const first = uuidFile.traffic(ctx).requests[0];
 * console.log(Object.keys(JSON.parse(first.expect.body!))); // ["q1", "q2", "q3", "q4"]
 * ```
 */
export const uuidFile: HttpWorkload = {
  name: "uuid-file",
  description: "GET /?q1..q4 written to <uuid>.json, read back, deleted and returned as application/json",
  kind: "http",
  variants: [
    { name: "default", description: "the runtime's idiomatic file API" },
    {
      name: NO_PARAMS,
      description: "GET / without query parameters to the same servers (every key null): the file work alone",
      inSuite: false,
    },
    {
      name: URL_PARSE,
      description: "the JavaScript servers parse the query with url.parse + querystring.parse, as 001 rewrote them",
      inSuite: false,
    },
  ],
  server(runtime: string, variant: string): ServerSource | Skip {
    const entry = serverFile(runtime, "uuid_file");
    if (!entry) return { skip: `no uuid-file server for ${runtime}` };
    // The native baselines' adapters say what they are; every other runtime runs the JavaScript servers.
    const javaScript = !builtinAdapters.find((a) => a.name === runtime)?.baseline;
    if (variant === URL_PARSE && !javaScript) {
      return { skip: `url.parse and querystring are Node.js APIs; ${runtime} parses with its own` };
    }
    const queryParser = variant === URL_PARSE ? "url.parse + querystring.parse" : "URL searchParams";
    return {
      entry,
      ...(variant === URL_PARSE ? { args: [URL_PARSE] } : {}),
      facts: { fileApi: FILE_APIS[runtime] ?? null, ...(javaScript ? { queryParser } : {}) },
    };
  },
  traffic(ctx: WorkloadContext) {
    if (ctx.variant === NO_PARAMS) {
      const body = JSON.stringify({ q1: null, q2: null, q3: null, q4: null });
      return {
        requests: [{ method: "GET", path: "/", expect: { status: 200, contentType: "application/json", body } }],
      };
    }
    const random = seededRandom(SEED);
    const value = () => randomText(random, ALPHABET, 0, 12);
    const requests: HttpRequestSpec[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      requests.push(requestFor({ q1: value(), q2: value(), q3: value(), q4: value() }));
    }
    return { requests };
  },
  async setup(ctx: WorkloadContext): Promise<WorkloadSession> {
    const parent = `${ctx.tempDir}/files`;
    // Each run's directory in an ext4 block group of its own: ext4 makes files freed shortly before dearer to create.
    const reset = await spreadingParent(parent);
    const dataDir = `${parent}/data`;
    await Deno.mkdir(dataDir, { recursive: true });
    // A run verified but never finished (its server failed) may have left files
    // that must not be blamed on the next server.
    let runOpen = false;
    const watcher = directoryWatcher();
    let log: FileEventLog | null = null;
    return {
      env: { [UUID_FILE_DATA_DIR_ENV]: dataDir },
      facts: { ...await dataDirFacts(dataDir, reset), fileEventWatcher: watcher.name },
      async verify(v: VerifyContext): Promise<Check[]> {
        const checks: Check[] = [];
        const present = await filesIn(dataDir);
        if (runOpen) {
          await removeAll(dataDir, present);
        } else {
          checks.push({
            name: `files left after the first ${v.exchanges.length} requests`,
            passed: present.length === 0,
            expected: 0,
            actual: present.length,
          });
        }
        runOpen = true;
        checks.push(...await verifyFileLifecycle(v, dataDir, watcher));
        return checks;
      },
      async beforeRun(): Promise<void> {
        // A run that failed before its afterRun left its watch running.
        await log?.stop();
        log = null;
        await freshDir(dataDir);
        log = await logFileEvents(dataDir, ctx.signal);
      },
      async dispose(): Promise<void> {
        await log?.stop();
        log = null;
      },
      async afterRun(run: AfterRunContext): Promise<Check[]> {
        const events = await log?.stop();
        log = null;
        const left = await filesIn(dataDir);
        await removeAll(dataDir, left);
        runOpen = false;
        const checks: Check[] = [{
          name: `run ${run.run + 1}: files left in the data directory`,
          passed: left.length === 0,
          expected: 0,
          actual: left.length,
        }];
        if (events && run.window) checks.push(...countedFiles(run, events, ctx.settings));
        if (events) {
          // Every request of the run, verification included, creates one file: the answered ones surely did.
          const s = ctx.settings;
          checks.push(...sideEffectChecks(run, {
            what: "files created (inotifywait)",
            actual: events.filter((e) => e.kind === "create").length,
            inFlight: s.connections * s.pipelining * (s.warmupSec > 0 ? 2 : 1),
            // inotifywait may merge or lose an event under a burst; a server that writes no file loses them all.
            tolerance: 0.02,
          }));
        }
        return checks;
      },
    };
  },
};
