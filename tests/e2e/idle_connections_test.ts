// docs/method.md "CPU per request and memory per connection": the idle connections are opened within --timeout and not
// a moment past an interruption; a server that does not answer them gives no figure and a warning, never a hang.
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { idleMemory } from "../../runners/kinds/idle_connections.ts";

/** A server that accepts connections and never answers. */
function silentServer(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) conns.push(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: () => {
      listener.close();
      conns.forEach((c) => c.close());
    },
  };
}

function context(signal: AbortSignal) {
  return { settings: { idleConnections: 300, requestTimeoutSec: 1 }, signal } as never;
}

function running(port: number) {
  return { baseUrl: `http://127.0.0.1:${port}`, port, group: { pid: Deno.pid } } as never;
}

const request = { path: "/", expect: { status: 200, contentType: "application/json", body: "{}" } };

Deno.test("idle connections to a server that never answers: a warning within --timeout, no figure", async () => {
  const server = silentServer();
  try {
    const started = performance.now();
    const memory = await idleMemory(context(new AbortController().signal), running(server.port), 0, { http: request });
    const took = performance.now() - started;
    assert(took < 3000, `took ${took} ms with --timeout 1`);
    assertEquals(memory?.warning?.code, "idle-connections-failed");
    assertMatch(memory!.warning!.message, /not all open in time/);
    assertEquals(memory?.figures.serverRssPerConnectionBytes, undefined);
    // Only a record's first run measures it.
    assertEquals(
      await idleMemory(context(new AbortController().signal), running(server.port), 1, { http: request }),
      null,
    );
  } finally {
    server.close();
  }
});

Deno.test("idle connections stop at an interruption", async () => {
  const server = silentServer();
  const controller = new AbortController();
  try {
    setTimeout(() => controller.abort(new DOMException("interrupted by SIGINT", "AbortError")), 300);
    const started = performance.now();
    await assertRejects(() => idleMemory(context(controller.signal), running(server.port), 0, { http: request }));
    assert(performance.now() - started < 1000);
  } finally {
    server.close();
  }
});
