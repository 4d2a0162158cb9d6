// The docs check (`deno task docs`, beside markdownlint-cli2): in every Markdown file of the project (the README and
// the pages of docs/), every internal link resolves (a heading of the file, or a file of the repository), no code span
// is broken across lines, every table row has its header's cells, and every sample of output is checked against the
// current code — its command is one rtbench accepts, each table header in it is one the current code prints, and each
// of rtbench's own lines in it (`rtbench: …`, `Result written to …`) has the form the current code gives it, produced
// here for real, and a sample of `bench --list` is the current list. Every TypeScript block type-checks, and the README
// stays a landing page: at most 120 lines, none over 120 columns, no paragraph over 80 words.
import { assert, assertEquals } from "@std/assert";
import { builtinWorkloads } from "../../workloads/mod.ts";
import { parseCli } from "../../runners/cli/bench.ts";
import { formatTable } from "../../runners/report/table.ts";
import { formatMarkdown } from "../../runners/report/markdown.ts";
import { fairShare, formatFairShare } from "../../runners/report/fair_share.ts";
import { formatOrderDrift } from "../../runners/selfcheck/order_drift.ts";
import { formatVsWrk } from "../../runners/selfcheck/vs_wrk.ts";
import { formatStartupComparison } from "../../runners/selfcheck/compare_startup.ts";
import { type CeilingRow, formatCeiling } from "../../runners/selfcheck/ws_ceiling.ts";
import type { BenchRecord, BenchResult } from "../../runners/schema/result.ts";
import type { ResourceSummary, RoleSummary } from "../../runners/schema/resources.ts";
import { BASE_PATH, HEAD_PATH, loadFixture } from "../_report_helpers.ts";
import { denoTasks, ROOT, runCli, spawnCli, waitFor, withTmp } from "../_helpers.ts";

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
 * A table header as its column names, a runtime's label (`deno 2.9.6`, `bun@1.2`, `node 26.10.0 (line 26, Active
 * LTS)`, `go 1.26.8 (baseline)`) standing for any and the columns of one runtime standing for as many runtimes as the
 * table has.
 */
function columns(header: string): string {
  const names = header.trim().split(/\s{2,}/).map((c) =>
    c.replace(/^(deno|node|bun|go|rust)(@\S+)?( \d[\w.]*)?( \(line [^)]*\))?( \(baseline\))?/, "<rt>")
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
  // A keep-alive-off section (docs/method.md "Connections that close"): the connect's p50 and p99, CPU per request, and
  // at the fixed rate the run chose from its first round (CPU per request, the client's, the server's memory).
  const closing = (r: BenchRecord): BenchRecord => ({
    ...r,
    variant: "keep-alive-off",
    id: `${r.id}/keep-alive-off`,
    settings: { ...r.settings, keepAlive: false, cpuRate: 920 },
    summary: {
      ...r.summary,
      connectP50Us: r.summary.requestsPerSecond,
      connectP99Us: r.summary.requestsPerSecond,
      serverCpuUsPerRequest: r.summary.requestsPerSecond,
      serverCpuUsPerRequestAtRate: r.summary.requestsPerSecond,
      clientCpuUsPerResponseAtRate: r.summary.requestsPerSecond,
      serverRssAtRateBytes: r.summary.requestsPerSecond,
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
  // The CPU and memory figures a record has: the measured window's CPU per request alone (a workload of one's own),
  // or with `--cpu-rate` and `--idle-connections` (the default suite's http-json) the figures at a fixed rate too.
  const rps = first.summary.requestsPerSecond;
  const withFigures = (names: readonly string[]): BenchResult => ({
    ...base,
    records: base.records.map((r) => ({
      ...r,
      summary: { ...r.summary, ...Object.fromEntries(names.map((n) => [n, rps])) },
    })),
  });
  const measuredCpu = withFigures(["serverCpuUsPerRequest"]);
  const atRate = withFigures([
    "serverCpuUsPerRequest",
    "serverCpuUsPerRequestAtRate",
    "clientCpuUsPerResponseAtRate",
    "serverRssAtRateBytes",
    "serverRssPerConnectionBytes",
  ]);
  // `runners/dev/fair_share.ts`: multi-core records (`facts.serverForm`) at two core budgets.
  const budgets = [{ server: "0", client: "1" }, { server: "0,1", client: "0,1" }].flatMap((cpus) =>
    base.records.map((r) => ({ ...r, cpus, facts: { ...r.facts, serverForm: "workers" } }))
  );
  const texts = [
    formatTable(base),
    formatTable(head),
    formatTable(sampled),
    formatMarkdown(sampled),
    formatTable(measuredCpu),
    formatTable(atRate),
    formatFairShare(fairShare(budgets)),
    formatOrderDrift([{ order: "rotate", ratios: [2], suiteCvPercent: [1], requestsPerSecond: [[2], [1]] }], [
      "deno",
      "node",
    ]),
    formatVsWrk({
      // With `--locust`, Locust's own table too.
      runtimes: [{ runtime: "deno", rtbench: [1], wrk: [1], locust: [1], locustPerCore: [1] }],
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
  // Interrupted after the first round, as tests/e2e/interrupt_test.ts does.
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

// README: a newcomer's page — what rtbench is, the two commands first, what a run prints and how to read it, and a
// link to every page of docs/, where the rest lives.
Deno.test("docs: the README is a page a newcomer reads, and links every page of docs/", () => {
  const readme = TEXTS.get("README.md")!;
  const lines = readme.split("\n");
  assert(lines.length <= 120, `README.md has ${lines.length} lines: at most 120, the rest goes in docs/`);
  const wide = lines.filter((line) => line.length > 120);
  assertEquals(wide, [], "README.md lines over 120 columns");
  // A paragraph: prose lines between blank lines, outside fenced blocks and tables; each list item is one.
  const prose = readme.replace(/```[\s\S]*?```/g, "").split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )/)
    .filter((p) => !p.trimStart().startsWith("|"));
  const long = prose.filter((p) => p.split(/\s+/).filter(Boolean).length > 80);
  assertEquals(long, [], "README.md paragraphs over 80 words");
  const firstBlock = readme.slice(readme.indexOf("```sh\n"), readme.indexOf("\n```\n", readme.indexOf("```sh\n")));
  assert(/npx -y deno@2 task bench/.test(firstBlock) && /npx -y deno@2 task test/.test(firstBlock), firstBlock);
  const pages = FILES.filter((f) => f.startsWith("docs/"));
  assert(pages.length >= 6, pages.join());
  for (const page of pages) assert(readme.includes(`](${page})`), `README.md links ${page}`);
});

/** A fenced block of code with its language, its `title="…"` (the file it is) and where it is. */
interface CodeBlock {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly title: string | null;
  /** The `##` section it is in: its titled blocks are the files of one project. */
  readonly section: string;
  readonly code: string;
}

function codeBlocks(): CodeBlock[] {
  const found: CodeBlock[] = [];
  for (const [file, text] of TEXTS) {
    let section = "";
    let open: { line: number; info: string; lines: string[] } | null = null;
    for (const [i, line] of text.split("\n").entries()) {
      if (open === null && /^#{1,2} /.test(line)) section = line;
      if (!line.startsWith("```")) open?.lines.push(line);
      else if (open === null) open = { line: i + 1, info: line.slice(3).trim(), lines: [] };
      else {
        const lang = open.info.split(/\s/)[0];
        const title = /\btitle="([^"]+)"/.exec(open.info)?.[1] ?? null;
        found.push({ file, line: open.line, lang, title, section, code: `${open.lines.join("\n")}\n` });
        open = null;
      }
    }
  }
  return found;
}

// Every TypeScript block of every page is code a reader copies, so it type-checks as it stands: the titled blocks of a
// section are the files of one project (its `deno.json`, or the one docs/reference.md gives, with a checkout of
// rtbench at ../rtbench), an untitled block a module of such a project. A file for Bun (it uses the `Bun` global, whose
// types Deno lacks) is left to the test that runs it (tests/acceptance/consumer_project_test.ts runs the own-workload project on
// every runtime; tests/e2e/own_workload_test.ts holds its files to tests/fixtures/own_workload/), and so is a file of
// rtbench's own (titled `… (in a checkout of rtbench)`, with the registry's line beside it): tests/e2e/kinds_test.ts adds
// docs/development.md's new kind to a copy of the repository from those blocks, type-checks it and runs it.
Deno.test("docs: every TypeScript block type-checks, in a project of its section's files", async () => {
  const blocks = codeBlocks();
  const projects = new Map<string, CodeBlock[]>();
  for (const b of blocks.filter((b) => b.title === null || !b.title.includes("("))) {
    const key = `${b.file} ${b.section}`;
    projects.set(key, [...projects.get(key) ?? [], b]);
  }
  const typescript = (b: CodeBlock) => ["ts", "typescript"].includes(b.lang) && !/\bBun\./.test(b.code);
  const checked: string[] = [];
  await withTmp(async (tmp) => {
    await Deno.symlink(ROOT.replace(/\/$/, ""), `${tmp}/rtbench`);
    let n = 0;
    for (const [key, files] of projects) {
      if (!files.some(typescript)) continue;
      const project = `${tmp}/project-${n++}`;
      const names: string[] = [];
      for (const b of files) {
        const name = b.title ?? (typescript(b) ? `block-${b.line}.ts` : null);
        if (name === null) continue;
        await Deno.mkdir(`${project}/${name}`.replace(/\/[^/]+$/, ""), { recursive: true });
        await Deno.writeTextFile(`${project}/${name}`, b.code);
        if (typescript(b)) names.push(name);
      }
      if (!files.some((b) => b.title === "deno.json")) {
        await Deno.writeTextFile(
          `${project}/deno.json`,
          JSON.stringify({ imports: { "@rtbench/rtbench": "jsr:@rtbench/rtbench@^0.1.0" }, links: ["../rtbench"] }),
        );
      }
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["check", ...names],
        cwd: project,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(out.code, 0, `${key}: ${new TextDecoder().decode(out.stderr)}`);
      checked.push(...names.map((name) => `${key.split(" ")[0]}: ${name}`));
    }
  });
  // The own-workload project's workload and program, at least, are among them.
  assert(
    checked.includes("docs/reference.md: greet.ts") && checked.includes("docs/reference.md: bench.ts"),
    checked.join(),
  );
});

// docs/workloads.md: the catalogue is `--list`'s own output. A sample of `deno task bench --list` holds, line for line,
// what the current code lists as workloads (the runtimes it lists depend on the machine, so a sample may leave them
// out).
Deno.test("docs: a sample of bench --list is what the current code lists", async () => {
  const list = await runCli(["--list"]);
  assertEquals(list.code, 0, list.stderr);
  const listed = list.stdout.split("\n");
  const shown = samples().filter((s) => s.lines.some((l) => /^\$ .*\btask bench --list$/.test(l)));
  assert(shown.some((s) => s.file === "docs/workloads.md"), "docs/workloads.md shows the list");
  for (const sample of shown) {
    const lines = sample.lines.filter((l) => !l.startsWith("$ "));
    assertEquals(lines, listed.slice(0, lines.length), `${sample.file}:${sample.line}`);
  }
});
