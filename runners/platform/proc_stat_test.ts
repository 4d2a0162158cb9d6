import { assertAlmostEquals, assertEquals } from "@std/assert";
import { members, parseSnapshot, parseStatLine } from "./proc_stat.ts";

// Fields after the command, as proc_pid_stat(5) orders them; only a few matter here.
function stat(pid: number, comm: string, ppid: number, session: number, utime: number, threads = 1, rss = 100): string {
  const after = ["S", ppid, pid, session, 0, -1, 0, 0, 0, 0, 0, utime, 1, 0, 0, 20, 0, threads, 0, 500, 4096, rss];
  return `${pid} (${comm}) ${after.join(" ")}`;
}

Deno.test("a stat line with spaces and parentheses in the command parses", () => {
  const parsed = parseStatLine(stat(42, "Web Content (x)", 7, 42, 30, 4, 250));
  assertEquals(parsed, {
    pid: 42,
    ppid: 7,
    session: 42,
    ticks: 31,
    childTicks: 0,
    threads: 4,
    rssPages: 250,
    startTicks: 500,
  });
});

Deno.test("a tick's block yields processes, threads with schedstat, and fd counts", () => {
  const block = [
    "100.50 200.00",
    stat(1, "init", 0, 1, 5),
    stat(10, "server", 1, 10, 40, 2),
    stat(11, "worker", 10, 10, 20),
    stat(20, "other", 1, 20, 7),
    "100.52 200.10",
    stat(10, "server", 1, 10, 40, 2),
    stat(10, "server", 1, 10, 30),
    "300000000 5000000 12",
    stat(12, "server", 1, 10, 10),
    "100000000 0 3",
    stat(11, "worker", 10, 10, 20),
    stat(11, "worker", 10, 10, 20),
    "200000000 1000 4",
    "fd 10 17",
    "fd 11 3",
  ].join("\n");
  const s = parseSnapshot(block, new Set([10, 11]))!;
  assertAlmostEquals(s.uptimeSec, 100.51);
  assertEquals([...s.procs.keys()], [1, 10, 11, 20]);
  assertEquals(s.threads.get(12), { pid: 10, ticks: 11, startTicks: 500, runNs: 100000000, waitNs: 0 });
  assertEquals(s.threads.get(10)?.runNs, 300000000);
  assertEquals(s.threads.get(11), { pid: 11, ticks: 21, startTicks: 500, runNs: 200000000, waitNs: 1000 });
  assertEquals(s.fds.get(10), 17);
  // The tree of 10: itself and its child by session; 20 and init are not in it.
  assertEquals([...members(s, new Set([10]))].sort(), [10, 11]);
});
