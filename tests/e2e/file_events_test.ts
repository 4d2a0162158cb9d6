// The directory watchers see what another process does to a file: inotifywait
// every step in order, Deno.watchFs at least that the file existed; a whole-run log dates each creation and deletion
// between the moments around it, however late rtbench reads its line.
import { assertEquals } from "@std/assert";
import { directoryWatcher, logFileEvents } from "../../workloads/_file_events.ts";
import { needs, tool } from "../_needs.ts";
import { withTmp } from "../_helpers.ts";

const WRITE_READ_DELETE = `
  const file = Deno.args[0] + "/" + crypto.randomUUID() + ".json";
  Deno.writeTextFileSync(file, "{}");
  Deno.readTextFileSync(file);
  Deno.removeSync(file);
`;

async function inChild(dir: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["eval", WRITE_READ_DELETE, dir] }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
}

const INOTIFY = tool("inotifywait", "apt-get install inotify-tools");

Deno.test(needs(INOTIFY, {
  name: "inotifywait sees a file created, written, read and deleted, in that order",
  async fn() {
    await withTmp(async (dir) => {
      const watcher = directoryWatcher();
      assertEquals(watcher.name, "inotifywait");
      const { files } = await watcher.watch(dir, () => inChild(dir), 5000);
      assertEquals(files.length, 1);
      assertEquals(files[0].kinds.filter((k, i, all) => k !== all[i - 1]), ["create", "write", "read", "delete"]);
    });
  },
}));

Deno.test("Deno.watchFs (the fallback) sees which file existed", async () => {
  await withTmp(async (dir) => {
    const watcher = directoryWatcher(false);
    assertEquals(watcher.observes, ["create"]);
    const { files } = await watcher.watch(dir, () => inChild(dir), 5000);
    assertEquals(files.length, 1);
    assertEquals(/^[0-9a-f-]{36}\.json$/.test(files[0].name), true);
  });
});

// docs/workloads.md (uuid-file): "each event is dated by the ticks around it", however late its line reaches rtbench.
// Each file made and removed with the times before and after, by another process, 10 ms apart.
const TIMED_FILES = `
  const stamps = [];
  for (let i = 0; i < 30; i++) {
    const file = Deno.args[0] + "/" + i + ".json";
    const created = [Date.now()];
    Deno.writeTextFileSync(file, "{}");
    created.push(Date.now());
    const deleted = [Date.now()];
    Deno.removeSync(file);
    deleted.push(Date.now());
    stamps.push({ created, deleted });
    await new Promise((r) => setTimeout(r, 10));
  }
  console.log(JSON.stringify(stamps));
`;

Deno.test(needs(INOTIFY, {
  name: "a whole-run log dates each file created and deleted between moments that hold it, rtbench busy or not",
  async fn() {
    await withTmp(async (dir) => {
      const log = await logFileEvents(dir);
      const child = new Deno.Command(Deno.execPath(), { args: ["eval", TIMED_FILES, dir], stdout: "piped" }).output();
      // rtbench held up for 150 ms while the files come: their lines are read late, and no tick is made meanwhile.
      await new Promise((r) => setTimeout(r, 100));
      const end = Date.now() + 150;
      while (Date.now() < end) { /* busy */ }
      const out = await child;
      const events = await log!.stop();
      const stamps: { created: number[]; deleted: number[] }[] = JSON.parse(new TextDecoder().decode(out.stdout));
      const created = events.filter((e) => e.kind === "create");
      const deleted = events.filter((e) => e.kind === "delete");
      assertEquals([created.length, deleted.length], [30, 30]);
      // Date.now() drops the fraction: the child's moment lies within a millisecond after its stamp.
      const holds = (e: { afterMs: number; beforeMs: number }, [from, to]: number[]) =>
        e.afterMs <= to + 1 && e.beforeMs >= from;
      assertEquals(created.filter((e, i) => !holds(e, stamps[i].created)), []);
      assertEquals(deleted.filter((e, i) => !holds(e, stamps[i].deleted)), []);
      // Dated by when their lines came, the files of the held-up stretch would fall after their moments; ticks every
      // few milliseconds date events closely while rtbench runs.
      const widths = created.map((e) => e.beforeMs - e.afterMs).sort((a, b) => a - b);
      assertEquals(widths[0] < 50, true, `narrowest span ${widths[0]} ms`);
    });
  },
}));
