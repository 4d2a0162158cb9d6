// docs/workloads.md "The driver's own ceiling": `deno run -A runners/dev/ws_ceiling.ts` loads the fastest server with each client
// (rtbench's engine, Deno's own WebSocket, the ws package) at 1, 8 and 32 messages in flight, and prints messages per
// second beside the driver's and the server's CPU use and the rate per driver core.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { runDevTool } from "../_helpers.ts";

Deno.test("ws-ceiling loads the fastest server with every client at 1, 8 and 32 in flight and prints the rate per core", async () => {
  const out = await runDevTool("ws-ceiling", ["--runtime", "deno", "--duration", "0.3", "--connections", "4"]);
  const text = out.stdout;
  assertEquals(out.code, 0, text + out.stderr);
  assertMatch(text, /^server\s+client\s+in-flight\s+messages\/s\s+driver cpu\s+server cpu\s+per driver core/m);
  for (const client of ["engine", "native", "ws"]) {
    for (const inFlight of [1, 8, 32]) {
      const row = text.split("\n").find((l) => new RegExp(`^deno\\s+${client}\\s+${inFlight}\\s`).test(l));
      assert(row, `${client} × ${inFlight}: ${text}`);
      const [rate, perCore] = [...row!.matchAll(/([\d,]+)\/s/g)].map((m) => Number(m[1].replaceAll(",", "")));
      assert(rate > 0 && perCore > 0, row);
    }
  }
  assertMatch(text, /driver ceiling: [\d,]+ messages\/s against deno, the fastest server/);
});
