// The accounting's verdict says why a hung connection hung when the engine can tell: one never answered since it
// opened is one the server never served (docs/method.md "Every request accounted for").
import { assertEquals, assertMatch } from "@std/assert";
import { judgeAccounting } from "./accounting.ts";
import type { RunAccounting } from "../schema/mod.ts";

const CLEAN: RunAccounting = {
  requests: 10_000,
  unanswered: 51,
  unansweredPercent: 0.51,
  notSent: 0,
  unasked: 0,
  hungConnections: 51,
  droppedConnections: 0,
  idleCloses: 0,
  reconnects: 0,
  reconnectMs: 0,
  outstandingAtEnd: 1000,
  hungAfterMs: 1250,
  timeoutMs: 10_000,
};

Deno.test("hung connections never answered since they opened: the verdict says the server did not serve them", () => {
  const never = judgeAccounting({ ...CLEAN, hungNeverAnswered: 51 }, 0, "requests").invalid!;
  assertMatch(never, /^51 connections hung: a request unanswered for longer than 1\.25 s/);
  assertMatch(
    never,
    /; 51 of them never had an answer since they opened: the server did not serve them, while it answered 9949 on the others \(/,
  );
  assertMatch(never, /kernel's accept queue\)/);
  // Hung after answers: no such clause.
  const stuck = judgeAccounting(CLEAN, 0, "requests").invalid!;
  assertEquals(stuck.includes("never had an answer"), false, stuck);
});
