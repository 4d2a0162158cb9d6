// docs/method.md "CPU per request and memory per connection": each idle connection has one keep-alive exchange, its
// response checked as the engine checks every response under load (the engine's parser, on real sockets here).
import { assertEquals, assertMatch } from "@std/assert";
import { exchangeOnConnection } from "../../runners/drivers/idle_exchange.ts";

const BODY = '{"message":"Hello, World!"}';
const request = { path: "/", expect: { status: 200, contentType: "application/json", body: BODY } };
const answer = (body = BODY, status = "200 OK") =>
  `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

/** A server on raw TCP that reads one request and writes `pieces` apart, then closes if `close`. */
async function exchangeWith(pieces: readonly string[], close = false) {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(4096));
    for (const piece of pieces) {
      await conn.write(new TextEncoder().encode(piece));
      await new Promise((r) => setTimeout(r, 5));
    }
    if (close) conn.close();
    return conn;
  })();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: (listener.addr as Deno.NetAddr).port });
  try {
    return await exchangeOnConnection(conn, "127.0.0.1", request);
  } finally {
    conn.close();
    const server = await served;
    if (!close) server.close();
  }
}

Deno.test("an exchange on a held connection: the answer after interim responses, in pieces, is the right one", async () => {
  const whole = answer();
  assertEquals(await exchangeWith([whole]), { answered: true, problem: null });
  assertEquals(await exchangeWith([whole.slice(0, 7), whole.slice(7, 40), whole.slice(40)]), {
    answered: true,
    problem: null,
  });
  const hints = "HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n";
  assertEquals(await exchangeWith(["HTTP/1.1 100 Continue\r\n\r\n", hints, whole]), { answered: true, problem: null });
});

Deno.test("an exchange on a held connection: a wrong, doubled, cut or garbled answer is a problem named", async () => {
  const wrongBody = await exchangeWith([answer(BODY.replace("World", "Earth"))]);
  assertEquals(wrongBody.answered, true);
  assertMatch(wrongBody.problem!, /Earth.*expected 200, "application\/json"/);
  const wrongStatus = await exchangeWith([answer(BODY, "503 Service Unavailable")]);
  assertMatch(wrongStatus.problem!, /status 503/);
  assertMatch((await exchangeWith([answer() + answer()])).problem!, /a second response/);
  const cut = await exchangeWith([answer().slice(0, -5)], true);
  assertEquals(cut, { answered: false, problem: "the connection closed before a whole response" });
  const garbled = await exchangeWith([answer().replace("HTTP/1.1", "HTTQ/1.1")]);
  assertEquals(garbled.answered, false);
  assertMatch(garbled.problem!, /not an HTTP\/1\.1 response/);
});
