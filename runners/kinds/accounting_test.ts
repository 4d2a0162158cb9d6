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

// docs/method.md "The limits, the same for both kinds": unanswered requests over 1% of the window's, drops over 1% of
// the answers, make a record invalid; at or under the limit it is completed with a warning naming the counts.
Deno.test("the 1% limits: unanswered and dropped just under stay completed with their warning, just over are invalid", () => {
  const base = { ...CLEAN, unanswered: 0, unansweredPercent: 0, hungConnections: 0 };
  const under = judgeAccounting({ ...base, unanswered: 100, unansweredPercent: 1 }, 0, "requests");
  assertEquals([under.invalid, under.warnings.map((w) => w.code)], [null, ["unanswered"]]);
  const over = judgeAccounting({ ...base, unanswered: 101, unansweredPercent: 1.01 }, 0, "requests");
  assertMatch(over.invalid!, /^101 of 10000 requests \(1\.0%\) went unanswered, over the 1% limit/);
  // 99 drops of 9,900 answers is 1%; 100 is over.
  const answered = { ...base, requests: 9_900 };
  const fewDrops = judgeAccounting({ ...answered, droppedConnections: 99, reconnects: 99 }, 0, "requests");
  assertEquals([fewDrops.invalid, fewDrops.warnings.map((w) => w.code)], [null, ["dropped-connections"]]);
  const drops = judgeAccounting({ ...answered, droppedConnections: 100, reconnects: 100 }, 0, "messages");
  assertMatch(drops.invalid!, /^the server closed 100 connections in use \(1\.0% of 9900 answers, over the 1% limit\)/);
});

// docs/method.md "Connections never answered": over 1% of the load's connections invalid, at or under it completed
// with the warning `never-answered`; either way before the hung rule, whose bound one late answer moves.
Deno.test("never-answered connections: 1% of the load's is completed with its warning, over 1% is invalid", () => {
  const base = { ...CLEAN, unanswered: 0, unansweredPercent: 0, hungConnections: 0, connections: 1000 };
  const under = judgeAccounting({ ...base, neverAnsweredConnections: 10 }, 1, "requests");
  assertEquals([under.invalid, under.warnings.map((w) => w.code)], [null, ["never-answered"]]);
  assertMatch(under.warnings[0].message, /^run 2: 10 of 1000 connections \(1\.0%\) had no first answer within/);
  const over = judgeAccounting({ ...base, neverAnsweredConnections: 967, hungConnections: 2 }, 0, "messages");
  assertMatch(
    over.invalid!,
    /^967 of 1000 connections \(96\.7%\) had no first answer within the larger of .* after the window opened, over the 1% limit/,
  );
  assertMatch(over.invalid!, /the figures describe the other 33 /);
});
