// README walk: shows claims of docs/workloads.md "The `uuid-file` and `bcrypt` workloads" (uuid-file).
// uuid-file: the real servers pass on every runtime with the file lifecycle
// watched; a server that names its keys wrong is invalid before any load; a
// server that leaves files behind is invalid with the count, and the files go.
import { assert, assertEquals, assertExists, assertMatch } from "@std/assert";
import { needs, tool } from "../_needs.ts";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { uuidFile } from "../../workloads/uuid_file.ts";
import { uuidFileLazy, uuidFileLeaky, uuidFileWrongKeys } from "../fixtures/uuid_file_faults.ts";
import { assertNothingLeft, entries, withTmp } from "../_helpers.ts";
import { resolveRuntime } from "../../adapters/mod.ts";
import { startServer } from "../../runners/kinds/server.ts";

const QUICK = { durationSec: 0.3, warmupSec: 0, runs: 1 };
const INOTIFY = tool("inotifywait", "apt-get install inotify-tools");

function created(record: { verification: { checks: readonly { name: string; actual?: unknown }[] } }): unknown {
  return record.verification.checks.find((c) => c.name.startsWith("run 1: files created in the measured"))?.actual;
}

Deno.test("uuid-file on deno, node and bun: bodies echo the queries, every file is written, read and deleted", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [uuidFile],
      runtimes: ["deno", "node", "bun"],
      variants: ["default"],
      settings: QUICK,
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    assertEquals(result.records.map((r) => r.runtime.name), ["deno", "node", "bun"]);
    for (const record of result.records) {
      assertEquals(record.status, "completed", `${record.runtime.name}: ${record.error?.message}`);
      const checks = new Map(record.verification.checks.map((c) => [c.name, c]));
      // The runner checked real traffic: percent-encoded, multi-byte values echoed byte for byte.
      assert(record.verification.checks.filter((c) => c.name.endsWith(" body") && c.passed).length >= 3);
      assertMatch(String(checks.get("file name is <uuid v4>.json")?.actual), /^[0-9a-f-]{36}\.json$/);
      assertEquals(checks.get("files created for one request")?.actual, 1);
      assertEquals(checks.get("run 1: files left in the data directory")?.actual, 0);
      assertExists(record.facts.fileApi);
      // The watcher is the one this machine has: inotifywait, else Deno.watchFs, which sees no more than that a file
      // existed, so nothing counts files under load and no file figure is recorded.
      assertEquals(record.facts.fileEventWatcher, INOTIFY.path ? "inotifywait" : "Deno.watchFs");
      if (!INOTIFY.path) assertEquals(record.summary.filesWrittenPerSecond, undefined);
    }
    assertEquals(new Set(result.records.map((r) => r.facts.fileApi)).size, 3, "each runtime's own file API");
    await assertNothingLeft(tmp);
  });
});

// docs/workloads.md (uuid-file): "files created and deleted are counted with inotifywait over the measured window".
Deno.test(needs(INOTIFY, {
  name: "uuid-file with inotifywait: each file's steps watched, files created and deleted counted over the window",
  async fn() {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [uuidFile],
        runtimes: ["deno"],
        variants: ["default"],
        settings: QUICK,
        tempDir: tmp,
      });
      const [record] = result.records;
      assertEquals(record.status, "completed", record.error?.message);
      const checks = new Map(record.verification.checks.map((c) => [c.name, c]));
      for (const step of ["file written", "file read back", "file deleted"]) {
        assertEquals(checks.get(`${step} (inotifywait)`)?.passed, true, step);
      }
      const figures = record.runs[0].figures;
      const seconds = figures.durationMs / 1000;
      for (const what of ["created", "deleted"]) {
        const check = record.verification.checks.find((c) => c.name.startsWith(`run 1: files ${what} in the measured`));
        assertEquals(check?.passed, true, JSON.stringify(check));
        // docs/workloads.md (uuid-file): with the default generator, the bounds are the requests in flight at the
        // window's edges (100 connections) and those never answered, not a share of the count.
        const [low, high] = String(check?.expected).split(" to ").map(Number);
        assertEquals(low, figures.validResponses - 100);
        assert(high >= figures.validResponses + 100, String(check?.expected));
      }
      // Over the whole run, every answered request made a file, and no file was made that no sent request explains.
      const whole = checks.get("run 1: files created (inotifywait) vs expected");
      assertEquals(whole?.passed, true, JSON.stringify(whole));
      assert(Number(whole?.expected) > figures.validResponses, "verification and the window's edges are in the run");
      // Counted, not copied from requests/s: the window's count over its length, between the files surely in the
      // window and those possibly in it, as the watch dated them.
      const [least, most = least] = String(created(record)).split(" to ").map(Number);
      const written = figures.filesWrittenPerSecond * seconds;
      assert(written >= least - 1 && written <= most + 1, `${written} files, ${least} to ${most} in the window`);
      assert(figures.filesWrittenPerSecond > 0);
      assert(figures.filesDeletedPerSecond > 0);
      assertExists(record.summary.filesWrittenPerSecond);
      await assertNothingLeft(tmp);
    });
  },
}));

Deno.test("a uuid-file server that returns the wrong keys is invalid and not measured", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [uuidFileWrongKeys],
      runtimes: ["deno"],
      variants: ["default"],
      settings: QUICK,
      tempDir: tmp,
    });
    const [deno] = result.records;
    assertEquals(deno.status, "invalid");
    assertEquals(deno.error?.phase, "verify");
    assertMatch(deno.error!.message, /body: got "\{\\"q0\\":/);
    assertEquals(deno.runs.length, 0);
    const echo = deno.verification.checks.find((c) => c.name === "verification request body echoes q1..q4");
    assertEquals(echo?.passed, false);
    assertEquals(echo?.expected, '{"q1":"verify","q2":"deno","q3":"a b+c","q4":"256"}');
    await assertNothingLeft(tmp);
  });
});

Deno.test("a uuid-file server that leaves files behind is invalid with the count, and the files are removed", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [uuidFileLeaky],
      runtimes: ["deno", "node"],
      variants: ["default"],
      settings: QUICK,
      tempDir: tmp,
    });
    const [deno, node] = result.records;
    assertEquals(deno.status, "invalid");
    assertEquals(deno.error?.phase, "cleanup");
    const left = deno.verification.checks.find((c) => c.name === "run 1: files left in the data directory")!;
    assertExists(left);
    assertEquals(left.passed, false);
    // Every 10th response leaked a file: the count is the measured run's share.
    const responses = deno.runs[0].figures.validResponses;
    assert(
      Number(left.actual) >= Math.floor((responses - 300) / 10),
      `${left.actual} files for ${responses} responses`,
    );
    // The deletions its window lacks (a tenth of its responses) say so too once they exceed the requests in flight at
    // the window's edges (100).
    const deletions = deno.verification.checks.find((c) => c.name.startsWith("run 1: files deleted in the measured"));
    const missing = responses - Number(String(deletions?.actual).split(" to ").at(-1));
    assertEquals(deletions?.passed, missing <= 100, JSON.stringify(deletions));
    assertMatch(
      deno.error!.message,
      new RegExp(
        `^run 1: files left in the data directory: got ${left.actual}, expected 0(; run 1: files deleted .*)?$`,
      ),
    );
    assertEquals(
      deno.verification.checks.find((c) => c.name === "files left after the first 256 requests")?.passed,
      true,
    );
    // The next runtime starts with an empty directory and is not blamed.
    assertEquals(node.status, "completed", node.error?.message);
    await assertNothingLeft(tmp);
  });
});

// docs/workloads.md (uuid-file): "a server that answers right but writes no file under load is invalid".
Deno.test(needs(INOTIFY, {
  name: "a uuid-file server that stops writing files under load is invalid: creations counted over the window",
  async fn() {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [uuidFileLazy],
        runtimes: ["deno"],
        variants: ["default"],
        // Its 43 files over half a second stay under the 100/s asserted below.
        settings: { ...QUICK, durationSec: 0.5 },
        tempDir: tmp,
      });
      const [deno] = result.records;
      assert(deno.verification.checks.filter((c) => c.name.startsWith("file ")).every((c) => c.passed), "verified");
      assertEquals([deno.status, deno.error?.phase], ["invalid", "cleanup"]);
      // The 43 files it still wrote (responses 258 to 300) against thousands of responses.
      assertMatch(
        deno.error!.message,
        /run 1: files created in the measured window \(inotifywait\) match .*: got "?\d\d?(?: to \d\d?)?"?, /,
      );
      assert(deno.runs[0].figures.filesWrittenPerSecond < 100, "counted, not copied from requests/s");
      await assertNothingLeft(tmp);
    });
  },
}));

// docs/workloads.md (uuid-file): "a stop never leaves a half-done file": Bun's stop() resolves with handlers between
// write and delete, and exiting then left dozens of files (5 rounds in 6 before the server waited for them).
Deno.test("a loaded Bun uuid-file server, stopped as rtbench stops servers, leaves no file behind", async () => {
  await withTmp(async (tmp) => {
    const dataDir = `${tmp}/data`;
    await Deno.mkdir(dataDir);
    const runtime = await resolveRuntime({ name: "bun", requested: "bun" });
    const file = new URL("../../servers/bun/uuid_file.ts", import.meta.url).pathname;
    for (let round = 1; round <= 20; round++) {
      const env = { RTBENCH_DATA_DIR: dataDir };
      const server = await startServer({ runtime, file, cwd: tmp, cpus: null, timeoutMs: 30_000, env });
      // 128 keep-alive connections, one request in flight each, as the load engine sends them.
      const request = new TextEncoder().encode("GET /?q1=a&q2=b&q3=c&q4=d HTTP/1.1\r\nhost: x\r\n\r\n");
      let answered = 0;
      try {
        const conns = await Promise.all(Array.from({ length: 128 }, () => Deno.connect({ port: server.port })));
        const clients = conns.map(async (c) => {
          const buffer = new Uint8Array(1024);
          try {
            while (true) {
              await c.write(request);
              if ((await c.read(buffer)) === null) return;
              answered++;
            }
          } catch {
            // Closed below, as the engine closes its connections at the end of the window.
          }
        });
        const until = performance.now() + 20_000;
        while (answered < 500 && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
        assert(answered >= 500, `round ${round}: ${answered} answers in 20 s`);
        // The engine closes its connections with requests in flight, then the server is stopped: handlers are still
        // mid-way through their files with nobody left to answer.
        for (const c of conns) c.close();
        await server.stop();
        await Promise.all(clients);
      } finally {
        // Whatever failed above, the server does not outlive the test (a second stop does nothing).
        await server.stop();
      }
      assertEquals(server.group.status?.signal ?? null, null, "it exited on SIGTERM, within the grace, not killed");
      assertEquals(await entries(dataDir), [], `round ${round}: no file left behind`);
    }
    await Deno.remove(dataDir);
    await assertNothingLeft(tmp);
  });
});
