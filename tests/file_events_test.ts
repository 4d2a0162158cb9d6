// The directory watchers see what another process does to a file: inotifywait
// every step in order, Deno.watchFs at least that the file existed.
import { assertEquals } from "@std/assert";
import { directoryWatcher } from "../workloads/_file_events.ts";
import { needs, tool } from "./_needs.ts";
import { withTmp } from "./_helpers.ts";

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
