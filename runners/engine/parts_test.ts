// The engine's parts, each alone: the in-flight ring, the window, the tally, the pumps (fake clock, fake connections).
import { assert, assertEquals } from "@std/assert";
import { FakeClock } from "./_fake_clock.ts";
import { InFlight } from "./in_flight.ts";
import { ClosedPump, type PumpConnection, ScheduledPump } from "./_pump.ts";
import { Schedule } from "./_schedule.ts";
import { AFTER, MISMATCH, Tally, VALID, WARMUP, WINDOW } from "./tally.ts";
import { Window } from "./_window.ts";
import { FakeNet } from "./_fake_net.ts";
import { FakeServer, JOB } from "./_fake_server.ts";
import { driveHttp } from "./_http_load.ts";

Deno.test("the in-flight ring keeps requests oldest first and grows past its first capacity", () => {
  const q = new InFlight(2);
  for (let i = 0; i < 5; i++) q.push(i, i * 10, i % 2);
  assertEquals([q.length, q.oldestAt], [5, 0]);
  assert(q.shift());
  assertEquals([q.index, q.at, q.phase], [0, 0, 0]);
  q.push(5, 50, 1);
  const seen: number[] = [];
  q.forEach((_at, _phase, index) => seen.push(index));
  assertEquals(seen, [1, 2, 3, 4, 5]);
  q.clear();
  assertEquals([q.length, q.shift(), Number.isNaN(q.oldestAt)], [0, false, true]);
});

Deno.test("the closed model's window: warm-up, window, after; it may end early", () => {
  const clock = new FakeClock();
  const w = new Window(clock, 1000, 2000, null);
  w.start();
  assertEquals([w.where(999, 0), w.where(1000, 0), w.where(3000, 0), w.where(3001, 0)], [
    WARMUP,
    WINDOW,
    WINDOW,
    AFTER,
  ]);
  assertEquals([w.sending(3000), w.sending(3001), w.opened(999), w.opened(1000)], [true, false, false, true]);
  assertEquals(w.startEpochMs, 1_001_000);
  clock.advance(1500);
  w.endNow();
  assertEquals([w.durationMs, w.where(1600, 0)], [500, AFTER]);
});

Deno.test("the open model's window: an answer belongs to its request's phase, whenever it comes", () => {
  const w = new Window(new FakeClock(), 1000, 2000, [false, true]);
  w.start();
  assertEquals([w.where(5000, 0), w.where(0, 1), w.where(99_999, 1)], [WARMUP, WINDOW, WINDOW]);
});

Deno.test("the tally counts each answer where it fell; only valid answers of the window add latency", () => {
  const t = new Tally([], [0, 1, 0]);
  const span = t.span();
  t.answer(WARMUP, VALID, 10, 5, 0, 0, 500, span);
  t.answer(WINDOW, VALID, 10, 100, 0, 1, 1200, span);
  t.answer(WINDOW, MISMATCH, 12, 200, 0, 2, 1300, span);
  t.answer(AFTER, VALID, 10, 300, 0, 0, 3100, span);
  assertEquals([t.warmupResponses, t.responses, t.validResponses, t.lateResponses, t.bytes, t.mismatches], [
    1,
    2,
    1,
    1,
    22,
    1,
  ]);
  assertEquals(t.histogram.total, 1);
  // The window's one valid answer is its first and last counted: the mismatch and the answers outside do not count.
  assertEquals([span.count, span.first, span.last], [1, 1200, 1200]);
  const [a, b] = t.endpoints()!;
  assertEquals([a.warmupValidResponses, a.responses, a.validResponses, b.validResponses], [1, 1, 0, 1]);
});

/** A connection for the pumps: `capacity` in flight, answered only when the test says. */
class Conn implements PumpConnection {
  queued = false;
  sent: { at: number; phase: number }[] = [];
  inFlight = 0;
  constructor(readonly capacity: number) {}
  get ready() {
    return this.inFlight < this.capacity;
  }
  send(at: number, phase: number) {
    this.sent.push({ at, phase });
    this.inFlight++;
  }
}

Deno.test("the closed pump fills a connection while the window is open, and not after", () => {
  const clock = new FakeClock();
  const w = new Window(clock, 0, 100, null);
  w.start();
  const pump = new ClosedPump(clock, w);
  const c = new Conn(3);
  pump.ready(c);
  assertEquals(c.sent.length, 3);
  clock.advance(101);
  c.inFlight = 0;
  pump.ready(c);
  assertEquals(c.sent.length, 3);
});

Deno.test("the scheduled pump sends each request when due; with no room it waits, latency still from when it was due", () => {
  const clock = new FakeClock();
  const phases = [{ durationMs: 100, fromRate: 100, toRate: 100, measured: true }];
  const tally = new Tally(phases);
  const w = new Window(clock, 0, 100, [true]);
  w.start();
  const pump = new ScheduledPump(clock, new Schedule(phases, "uniform", 1), tally, w);
  const c = new Conn(1);
  let done = false;
  pump.start(() => done = true);
  pump.ready(c);
  clock.advance(100);
  // Due at 0, 10, …, 90 ms: ten; one connection with room for one took the first, nine wait.
  assertEquals([done, c.sent.length, pump.waiting(), tally.phases()[0].scheduled], [true, 1, 9, 10]);
  c.inFlight = 0;
  pump.ready(c);
  // The oldest waiting request goes out, its latency from when it was due (10 ms), and it counts as late.
  assertEquals(c.sent[1], { at: 10, phase: 0 });
  assertEquals(tally.phases()[0].missedConnections, 1);
});

Deno.test("the scheduled pump sends requests due between timers when an answer wakes it, not at the next timer", () => {
  const clock = new FakeClock(1);
  const phases = [{ durationMs: 2, fromRate: 10_000, toRate: 10_000, measured: true }];
  const w = new Window(clock, 0, 2, [true]);
  w.start();
  const pump = new ScheduledPump(clock, new Schedule(phases, "uniform", 1), new Tally(phases), w);
  const c = new Conn(Infinity);
  const sentAt: number[] = [];
  const send = c.send.bind(c);
  c.send = (at, phase) => (sentAt.push(clock.now()), send(at, phase));
  pump.ready(c);
  pump.start(() => {});
  // Due every 0.1 ms; the timer fires 1 ms on. An answer at 0.35 ms sends the three due since (0.1, 0.2, 0.3).
  clock.advance(0.35);
  pump.ready(c);
  assertEquals(sentAt, [0, 0.35, 0.35, 0.35]);
  clock.advance(2);
  assertEquals(c.sent.length, 20);
});

Deno.test("the scheduled pump spreads requests round-robin over connections with room", () => {
  const clock = new FakeClock();
  const phases = [{ durationMs: 60, fromRate: 100, toRate: 100, measured: true }];
  const w = new Window(clock, 0, 60, [true]);
  w.start();
  const pump = new ScheduledPump(clock, new Schedule(phases, "uniform", 1), new Tally(phases), w);
  const conns = [new Conn(Infinity), new Conn(Infinity), new Conn(Infinity)];
  for (const c of conns) pump.ready(c);
  pump.start(() => {});
  clock.advance(60);
  assertEquals(conns.map((c) => c.sent.length), [2, 2, 2]);
});

Deno.test("P processes' evenly spaced schedules are staggered: process i of P starts i/P of an interval later", () => {
  const phases = [{ durationMs: 10, fromRate: 1000, toRate: 1000, measured: true }];
  const times = (offset: number) => {
    const s = new Schedule(phases, "uniform", 1, offset);
    const out: number[] = [];
    for (let t = s.next(); t !== null; t = s.next()) out.push(t);
    return out;
  };
  // 1,000/s: one every 1 ms; two processes at half the rate each would both send at 0, 2, 4 … ms without the offset.
  assertEquals(times(0).slice(0, 3), [0, 1, 2]);
  assertEquals(times(0.5).slice(0, 3), [0.5, 1.5, 2.5]);
});

Deno.test("a load with a shared start opens its connections at once and starts its warm-up and window at that instant", async () => {
  const clock = new FakeClock();
  const net = new FakeNet();
  // The shared instant is 300 ms away (FakeClock: moment 0 is epoch 1,000,000 ms).
  const done = driveHttp({ ...JOB, startAtEpochMs: 1_000_300, warmupSec: 0, durationSec: 0.1 }, clock, net.connect);
  assertEquals([net.sockets.length, net.sockets[0].written.length], [2, 0]);
  clock.advance(299);
  assertEquals(net.sockets[0].written.length, 0);
  clock.advance(1);
  assertEquals(net.sockets[0].written.length, 1);
  const server = new FakeServer(net);
  for (let i = 0; i < 40; i++) {
    clock.advance(10);
    server.answer();
    await Promise.resolve();
  }
  assertEquals((await done).windowStartMs, 1_000_300);
});
