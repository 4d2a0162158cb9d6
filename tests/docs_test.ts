// The docs check (`deno task docs`, beside markdownlint-cli2): in every Markdown file of the project, every internal
// link resolves (a heading of the file, or a file of the repository), no code span is broken across lines, every table
// row has its header's cells, and every sample of output is checked against the current code — its command is one
// rtbench accepts, each table header in it is one the current code prints, and each of rtbench's own lines in it
// (`rtbench: …`, `Result written to …`) has the form the current code gives it, produced here for real.
import { assert, assertEquals } from "@std/assert";
import { builtinWorkloads } from "../workloads/mod.ts";
import { parseCli } from "../runners/cli/bench.ts";
import { formatTable } from "../runners/report/table.ts";
import { formatMarkdown } from "../runners/report/markdown.ts";
import { formatOrderDrift } from "../runners/selfcheck/order_drift.ts";
import { formatVsWrk } from "../runners/selfcheck/vs_wrk.ts";
import { formatStartupComparison } from "../runners/selfcheck/compare_startup.ts";
import { type CeilingRow, formatCeiling } from "../runners/selfcheck/ws_ceiling.ts";
import type { BenchRecord, BenchResult } from "../runners/schema/result.ts";
import type { ResourceSummary, RoleSummary } from "../runners/schema/resources.ts";
import { BASE_PATH, HEAD_PATH, loadFixture } from "./_report_helpers.ts";
import { denoTasks, ROOT, runCli, spawnCli, waitFor, withTmp } from "./_helpers.ts";

/** Every Markdown file of the project (the README, docs/, fixtures' notes), relative to the root. */
async function markdownFiles(dir = ROOT, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if ([".git", "node_modules", "results"].includes(e.name)) continue;
    if (e.isDirectory) found.push(...await markdownFiles(`${dir}${e.name}/`, `${prefix}${e.name}/`));
    else if (e.name.endsWith(".md")) found.push(`${prefix}${e.name}`);
  }
  return found.sort();
}

const FILES = await markdownFiles();
const TEXTS = new Map(await Promise.all(FILES.map(async (f) => [f, await Deno.readTextFile(`${ROOT}${f}`)] as const)));

/** The file's lines, with the lines of fenced code blocks blanked (their text is not Markdown). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (line.startsWith("```")) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

Deno.test("docs: every internal link resolves to a heading or a file", async () => {
  assert(FILES.includes("README.md"));
  const broken: string[] = [];
  for (const [file, text] of TEXTS) {
    const lines = prose(text);
    const anchors = new Set(lines.filter((l) => /^#{1,6} /.test(l)).map((l) => anchorOf(l.replace(/^#+ /, ""))));
    const folder = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
    for (const [i, line] of lines.entries()) {
      for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split("#");
        if (path === "") {
          if (!anchors.has(anchor)) broken.push(`${file}:${i + 1}: #${anchor} is no heading of ${file}`);
        } else if (!(await Deno.stat(`${ROOT}${folder}${path}`).then(() => true, () => false))) {
          broken.push(`${file}:${i + 1}: ${path} does not exist`);
        }
      }
    }
  }
  assertEquals(broken, []);
});

Deno.test("docs: no code span is broken across lines, and every table row has its header's cells", () => {
  const problems: string[] = [];
  for (const [file, text] of TEXTS) {
    const lines = prose(text);
    let open: number | null = null;
    let header: number | null = null;
    for (const [i, line] of lines.entries()) {
      const ticks = (line.replace(/``+/g, "").match(/`/g) ?? []).length;
      if (ticks % 2 === 1) {
        if (open === null) open = i;
        else {
          problems.push(`${file}:${open + 1}: a code span runs on to line ${i + 1}`);
          open = null;
        }
      }
      if (line.trim() === "") open = null;
      const cells = line.startsWith("|") ? line.split(/(?<!\\)\|/).length - 2 : null;
      if (cells === null) header = null;
      else if (header === null) header = cells;
      else if (cells !== header) problems.push(`${file}:${i + 1}: ${cells} cells in a table of ${header}`);
    }
  }
  assertEquals(problems, []);
});

/** A fenced block without a language: a sample of what a command printed. */
interface Sample {
  readonly file: string;
  readonly line: number;
  readonly lines: readonly string[];
}

function samples(): Sample[] {
  const found: Sample[] = [];
  for (const [file, text] of TEXTS) {
    let block: { line: number; info: string; lines: string[] } | null = null;
    for (const [i, line] of text.split("\n").entries()) {
      if (!line.startsWith("```")) {
        block?.lines.push(line);
      } else if (block === null) {
        block = { line: i + 1, info: line.slice(3).trim(), lines: [] };
      } else {
        if (block.info === "") found.push({ file, line: block.line, lines: block.lines });
        block = null;
      }
    }
  }
  return found;
}

/**
 * A table header as its column names, a runtime's label (`deno 2.9.6`, `bun@1.2`) standing for any and the columns of
 * one runtime standing for as many runtimes as the table has.
 */
function columns(header: string): string {
  const names = header.trim().split(/\s{2,}/).map((c) =>
    c.replace(/^(deno|node|bun|go|rust)(@\S+)?( \d[\w.]*)?/, "<rt>")
  );
  const groups: string[][] = [[]];
  for (const name of names) {
    if (name.startsWith("<rt>")) groups.push([]);
    groups.at(-1)!.push(name);
  }
  return groups.filter((g, i) => i < 2 || g.join() !== groups[i - 1].join()).flat().join(" | ");
}

/** Header lines of a text: each line followed by a rule of ─. */
function headers(text: string): string[] {
  const lines = text.split("\n");
  return lines.filter((l, i) => /^[─ ]+$/.test(lines[i + 1] ?? "") && /─/.test(lines[i + 1]) && l.trim() !== "")
    .map(columns);
}

const role = (cpu: number): RoleSummary => ({
  cpuPercent: { mean: cpu, peak: cpu },
  busiestThreadPercent: { mean: cpu, peak: cpu },
  demandPercent: null,
  busiestThreadDemandPercent: null,
  rssBytes: { mean: 50 * 2 ** 20, peak: 51 * 2 ** 20 },
  threads: { mean: 6, peak: 6 },
  openFiles: { mean: 120, peak: 120 },
});

/** What the current code prints for the kinds of table the docs show, from stored and made-up results. */
async function printedHeaders(): Promise<Set<string>> {
  const [base, head] = await Promise.all([loadFixture(BASE_PATH), loadFixture(HEAD_PATH)]);
  const resources: ResourceSummary = {
    intervalMs: 250,
    samples: 8,
    server: role(97),
    client: role(60),
    samplerCpuPercent: 1.1,
    harnessCpuPercent: 2,
  };
  const [first] = base.records;
  const endpoint = {
    requestsPerSecond: first.summary.requestsPerSecond,
    validResponses: 10,
    latencyUs: first.latencyUs,
  };
  const restApi = (variant: string) =>
    base.records.map((r): BenchRecord => ({ ...r, workload: "rest-api", variant, id: `rest-api/${variant}/${r.id}` }));
  // A keep-alive-off section (README "Connections that close"): the connect's p50 and p99, and CPU per request.
  const closing = (r: BenchRecord): BenchRecord => ({
    ...r,
    variant: "keep-alive-off",
    id: `${r.id}/keep-alive-off`,
    settings: { ...r.settings, keepAlive: false },
    summary: {
      ...r.summary,
      connectP50Us: r.summary.requestsPerSecond,
      connectP99Us: r.summary.requestsPerSecond,
      serverCpuUsPerRequest: r.summary.requestsPerSecond,
    },
    warnings: [{ code: "single-run", message: "measured once" }],
  });
  const sampled: BenchResult = {
    ...base,
    records: [
      ...base.records.map((r) => ({ ...r, resources, endpoints: { "GET /users/:id": endpoint } })),
      ...restApi("default"),
      ...restApi("express"),
      ...base.records.map(closing),
    ],
  };
  const texts = [
    formatTable(base),
    formatTable(head),
    formatTable(sampled),
    formatMarkdown(sampled),
    formatOrderDrift([{ order: "rotate", ratios: [2], suiteCvPercent: [1], requestsPerSecond: [[2], [1]] }], [
      "deno",
      "node",
    ]),
    formatVsWrk({
      runtimes: [{ runtime: "deno", rtbench: [1], wrk: [1] }],
      autocannon: { rps: 1, warnings: [] },
      cpus: { server: "0", client: "1" },
      load: { before: "0", after: "0" },
    }),
    formatStartupComparison([{
      command: "deno 2.9.6 hello",
      rtbenchMs: 1,
      hyperfineMs: 1,
      runs: { rtbench: 1, hyperfine: 1 },
    }]),
    formatCeiling(
      [{
        runtime: "deno",
        client: "engine",
        inFlight: 1,
        // Only what the table reads of a measurement.
        measurement: {
          messagesPerSecond: 1,
          clientCpuPercent: 50,
          serverCpuPercent: 50,
          latencyUs: null,
          failedConnections: 0,
          droppedSockets: 0,
          timeouts: 0,
          mismatches: 0,
        } as unknown as CeilingRow["measurement"],
      }],
      100,
      64,
    ),
  ];
  return new Set(texts.flatMap(headers));
}

/** rtbench's own lines as the current code prints them, from real runs in `tmp`: paths and numbers as wildcards. */
async function printedMessages(tmp: string): Promise<RegExp[]> {
  const done = await runCli(
    ["-w", "startup", "--variant", "hello", "-r", "deno", "--runs", "1", "--duration", "0.1", "--quiet"]
      .concat(["--out", `${tmp}/done.json`]),
    { TMPDIR: tmp },
  );
  assertEquals(done.code, 0, done.stderr);
  // Interrupted after the first round, as tests/interrupt_test.ts does.
  await Deno.mkdir(`${tmp}/marks`);
  const child = spawnCli(
    ["--workload-file", "tests/fixtures/checkpoints.ts", "-w", "checkpoints", "-r", "deno,node", "--runs", "3"]
      .concat(["--duration", "0.3", "--warmup", "0", "--quiet", "--out", `${tmp}/stopped.json`]),
    { TMPDIR: tmp, CHECKPOINTS: `${tmp}/marks`, CHECKPOINT_HOLD: "before-first-node-1" },
  );
  const output = child.output();
  assert(
    await waitFor(
      async () => await Deno.stat(`${tmp}/marks/before-first-node-1`).then(() => true, () => false),
      60_000,
    ),
  );
  child.kill("SIGINT");
  const stopped = new TextDecoder().decode((await output).stderr);
  const lines = [...done.stderr.split("\n"), ...stopped.split("\n")].filter((l) => /^(rtbench:|Result )/.test(l));
  assert(lines.length >= 2, `${done.stderr}\n${stopped}`);
  return lines.map((l) => new RegExp(`^${pattern(l)}$`));
}

/** A line with its paths, numbers and `--workload-file` arguments made wildcards. */
function pattern(line: string): string {
  return line.replace(/ --workload-file \S+/g, "").split(/(\S*\/\S*\.json|\d+)/).map((part, i) =>
    i % 2 === 1 ? (part.includes("/") ? "\\S+\\.json" : "\\d+") : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  ).join("");
}

Deno.test("docs: every sample of output is checked against the current code", async () => {
  const printed = await printedHeaders();
  const messages = await withTmp(printedMessages);
  const problems: string[] = [];
  const tasks = Object.keys(await denoTasks());
  const known = [...builtinWorkloads];
  for (const sample of samples()) {
    const where = `${sample.file}:${sample.line}`;
    for (const line of sample.lines.filter((l) => l.startsWith("$ "))) {
      const words = line.slice(2).split(/\s+/);
      const task = words.indexOf("task");
      if (task === -1) continue;
      const [name, ...args] = words.slice(task + 1);
      if (!tasks.includes(name)) problems.push(`${where}: no task ${name}`);
      else if (name === "bench") {
        try {
          parseCli(args, known);
        } catch (error) {
          problems.push(`${where}: ${line}: ${(error as Error).message}`);
        }
      }
    }
    for (const header of headers(sample.lines.join("\n"))) {
      if (!printed.has(header)) problems.push(`${where}: no table of the current code has the header ${header}`);
    }
    for (const line of sample.lines.filter((l) => /^(rtbench:|Result )/.test(l))) {
      if (!messages.some((m) => m.test(line))) problems.push(`${where}: the current code does not print ${line}`);
    }
  }
  assertEquals(problems, []);
});
