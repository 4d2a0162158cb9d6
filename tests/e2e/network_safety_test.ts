// README walk: shows claims of docs/guide.md "Ports and interfaces" and "No shell, explicit permissions".
// Where servers listen: loopback unless --host says otherwise, on --port when given (refused by name when it is
// taken), recorded in the result; and no process is spawned through a shell with a value interpolated into it.
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { resolveRuntime } from "../../adapters/mod.ts";
import { startServer } from "../../runners/kinds/server.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { stageServer } from "../../runners/platform/workspace.ts";
import { entries, processesWithTmpdir, ROOT, runCli, withTmp } from "../_helpers.ts";
import { isSkip } from "../../workloads/types.ts";
import { condition, needs } from "../_needs.ts";

/** The http-json Deno server staged into `dir`. */
async function stagedDenoServer(dir: string): Promise<string> {
  const source = httpJson.server("deno", "default");
  if (isSkip(source)) throw new Error(source.skip);
  return await stageServer(source.entry, dir);
}

const SHORT = ["--workload", "http-json", "--runtime", "deno", "--duration", "0.3", "--warmup", "0", "--runs", "1"]
  .concat(["--cpu-rate", "0", "--idle-connections", "0"]);

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("--port: servers listen there and the result records it", async () => {
  await withTmp(async (tmp) => {
    const port = freePort();
    const cli = await runCli([...SHORT, "--port", String(port), "--out", `${tmp}/r.json`], { TMPDIR: tmp });
    assertEquals(cli.code, 0, cli.stderr);
    const result = parseResult(await Deno.readTextFile(`${tmp}/r.json`));
    assertEquals(result.settings.port, port);
    assertEquals(result.settings.host, "127.0.0.1");
    assertEquals(result.records[0].status, "completed");
    assertEquals(await processesWithTmpdir(tmp), []);
  });
});

// docs/guide.md "Faults tried": "`--port` in use" (exit 2); "Ports and interfaces".
Deno.test("--port in use: exit 2 naming the port, before anything runs", async () => {
  await withTmp(async (tmp) => {
    using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (taken.addr as Deno.NetAddr).port;
    const cli = await runCli([...SHORT, "--port", String(port), "--out", `${tmp}/r.json`], { TMPDIR: tmp });
    assertEquals(cli.code, 2);
    assertEquals(cli.stderr.trim(), `rtbench: --port ${port} is in use`);
    assertEquals(await entries(tmp), [], "no result file, nothing started");
  });
});

// docs/guide.md "Faults tried": "`--port` … taken mid-suite: `errored` in `start`".
Deno.test("a port taken during the suite errors that record in start, naming the port", async () => {
  await withTmp(async (tmp) => {
    using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (taken.addr as Deno.NetAddr).port;
    const file = await stagedDenoServer(tmp);
    const runtime = await resolveRuntime({ name: "deno", requested: "deno" });
    await assertRejects(
      () =>
        startServer({
          runtime,
          file,
          cwd: tmp,
          cpus: null,
          port,
          timeoutMs: 10_000,
        }),
      Error,
      `Cannot start server: port ${port} is in use (--port)`,
    );
  });
});

function nonLoopbackAddress(): string | undefined {
  return Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))?.address;
}

const outside = nonLoopbackAddress();
const OUTSIDE = condition(
  "a non-loopback IPv4 address",
  outside ? null : "this machine has no non-loopback IPv4 address to try the server on",
);

Deno.test(needs(OUTSIDE, {
  name: "a server started without --host answers on loopback only",
  fn: async () => {
    await withTmp(async (tmp) => {
      const file = await stagedDenoServer(tmp);
      const runtime = await resolveRuntime({ name: "deno", requested: "deno" });
      const server = await startServer({ runtime, file, cwd: tmp, cpus: null, timeoutMs: 30_000 });
      try {
        assertEquals((await fetch(server.baseUrl)).status, 200);
        await assertRejects(
          () => Deno.connect({ hostname: outside!, port: server.port }),
          Deno.errors.ConnectionRefused,
        );
      } finally {
        await server.stop();
      }
    });
  },
}));

async function sources(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await sources(path));
    else if (/\.(ts|mjs)$/.test(e.name) && !e.name.endsWith("_test.ts")) {
      out.push([path, await Deno.readTextFile(`${ROOT}${path}`)]);
    }
  }
  return out;
}

Deno.test("every server binds HOST, loopback by default", async () => {
  for (const [path, text] of await sources("servers")) {
    if (path.includes("/_")) continue; // helpers such as the embedded PostgreSQL driver, checked below
    if (!/\.listen\(|serve\(/.test(text)) continue;
    assertMatch(text, /(process\.env\.HOST|Deno\.env\.get\("HOST"\)) \?\? "127\.0\.0\.1"/, path);
  }
  const pg = await Deno.readTextFile(`${ROOT}servers/shared/embedded_postgres.mjs`);
  assertMatch(pg, /"--listen_addresses=127\.0\.0\.1"/);
  assertMatch(pg, /"--unix_socket_directories="/);
});

Deno.test("no child is spawned through a shell with a value in its script", async () => {
  const files = [...await sources("runners"), ...await sources("workloads"), ...await sources("adapters")];
  for (const [path, text] of files) {
    // Every process goes through runners/platform/process.ts.
    if (path !== "runners/platform/process.ts") assert(!text.includes("new Deno.Command("), `${path} spawns directly`);
    assert(!/\bDeno\.run\(|child_process|shell:\s*true/.test(text), `${path} uses a shell-capable API`);
    // A script handed to an interpreter (`sh -c`, `python -c`) is a constant without interpolation.
    for (const m of text.matchAll(/"(?:sh|bash|\/bin\/sh)"|"-c",\s*([A-Za-z_0-9]+)\]/g)) {
      if (m[0].startsWith('"-c"')) {
        // taskset's -c takes a CPU list, not a script.
        if (text.slice(Math.max(0, m.index! - 12), m.index).includes('"taskset"')) continue;
        const name = m[1];
        const all = files.map(([, t]) => t).join("\n");
        const definition = new RegExp(`const ${name}\\s*=\\s*(\`[^\`]*\`|"[^"]*"(\\s*\\+\\s*"[^"]*")*)`).exec(all);
        assert(definition, `${path}: ${name} is a constant string`);
        assert(!definition![1].includes("${"), `${path}: ${name} interpolates nothing`);
      } else {
        assertMatch(
          text.slice(m.index!, m.index! + 40),
          /^"sh", "-c", [A-Z_]*SCRIPT\]/,
          `${path}: a shell runs only a constant script`,
        );
      }
    }
  }
});

// docs/guide.md (Nothing left running): "Everything rtbench creates in the temporary directory … is made through
// `runners/platform/temp.ts`, which tracks it for the same exits".
Deno.test("temporary paths are made only through runners/platform/temp.ts", async () => {
  const files = [...await sources("runners"), ...await sources("workloads"), ...await sources("adapters")];
  for (const [path, text] of files) {
    // reaper-cost hands its one directory to the reaper it measures, which removes it: that is what it times.
    if (path === "runners/platform/temp.ts" || path === "runners/selfcheck/reaper_cost.ts") continue;
    // Doc comments (` * ` lines) may show Deno's own API to a reader; code may not use it.
    const code = text.split("\n").filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
    assert(
      !/Deno\.makeTemp(Dir|File)(Sync)?\(|\bmkdtemp|os\.tmpdir\(/.test(code),
      `${path} makes a temporary path itself`,
    );
  }
});

// docs/guide.md (Ports and interfaces): "`--host <address>` binds elsewhere (`0.0.0.0` is reached over loopback) and is
// recorded in the result (`settings.host`)".
Deno.test("--host 0.0.0.0: the server binds every interface, is reached over loopback, and the result records it", async () => {
  await withTmp(async (tmp) => {
    const cli = await runCli([...SHORT, "--host", "0.0.0.0", "--out", `${tmp}/r.json`], { TMPDIR: tmp });
    assertEquals(cli.code, 0, cli.stderr);
    const result = parseResult(await Deno.readTextFile(`${tmp}/r.json`));
    assertEquals(result.settings.host, "0.0.0.0");
    assertEquals(result.records[0].status, "completed", JSON.stringify(result.records[0].error));
    assertEquals(await processesWithTmpdir(tmp), []);
  });
});
