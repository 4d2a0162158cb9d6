// README walk: shows claims of docs/guide.md "Nothing lost: `--resume`" (a result that cannot be written goes under results/).
// Once something is measured, no write failure loses it: when --out's folder disappears mid-suite, or its disk is
// full, the result goes to a file under results/, one line says where, and the run ends with exit 1 and a complete
// file there. Before anything is measured, an --out that cannot be written is refused (exit 2, one line, the path and
// why): a folder, a path through a file, a system folder.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import { entries, ROOT, runCli, spawnCli, waitFor, withTmp } from "../_helpers.ts";
import { condition, needs } from "../_needs.ts";

const FIXTURE = "tests/fixtures/checkpoints.ts";
const SUITE = [
  ...["--workload-file", FIXTURE, "-w", "checkpoints", "-r", "deno", "--warmup", "0", "--runs", "1"],
  ...["--duration", "0.3", "--quiet"],
];

/** The fallback file a run's stderr names, checked to hold the whole suite, then removed. */
async function keptFile(stderr: string, why: RegExp): Promise<void> {
  const moved = /^rtbench: cannot write (\S+) \((.+)\); what was measured is kept in (\S+) instead$/m.exec(stderr);
  if (!moved) throw new Error(`no line says where the result went:\n${stderr}`);
  assertMatch(moved[2], why);
  const fallback = moved[3];
  assertMatch(fallback, /^results\/rtbench-\d{8}-\d{6}-kept-r\.json$/);
  assertMatch(stderr, new RegExp(`^Result written to ${fallback}$`, "m"));
  const result = parseResult(await Deno.readTextFile(`${ROOT}${fallback}`));
  assertEquals(result.records.map((r) => [r.id, r.status]), [
    ["checkpoints/first/deno", "completed"],
    ["checkpoints/second/deno", "completed"],
  ]);
  assert(result.finishedAt !== null);
  await Deno.remove(`${ROOT}${fallback}`);
  // results/ itself goes if this made it (a folder holding anything else stays).
  await Deno.remove(`${ROOT}results`).catch(() => {});
}

Deno.test("--out's folder gone mid-suite: the result goes to results/, said in one line, exit 1", () =>
  withTmp(async (tmp) => {
    const marks = `${tmp}/marks`;
    await Deno.mkdir(marks);
    const child = spawnCli([...SUITE, "--out", `${tmp}/out/r.json`], { TMPDIR: tmp, CHECKPOINTS: marks });
    const output = child.output();
    // The first variant's record is written; the folder goes before the second's.
    assert(await waitFor(async () => (await entries(marks)).includes("setup-second"), 120_000));
    assert((await entries(`${tmp}/out`)).includes("r.json"));
    await Deno.remove(`${tmp}/out`, { recursive: true });
    const done = await output;
    const stderr = new TextDecoder().decode(done.stderr);
    assertEquals(done.code, 1, stderr);
    await keptFile(stderr, /^no such folder$/);
  }));

/** A 24 KiB file system at `dir` (root only), or null where none can be mounted. */
async function smallDisk(dir: string): Promise<boolean> {
  const mount = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", "size=24k", "tmpfs", dir],
    stderr: "null",
  })
    .output().catch(() => null);
  return mount?.success ?? false;
}

/** Unmounts what {@linkcode smallDisk} mounted. */
async function unmount(dir: string): Promise<void> {
  await new Deno.Command("umount", { args: [dir] }).output();
}

/** A small tmpfs, tried once here: mounting one needs root. */
const TMPFS = condition(
  "a 24 KiB tmpfs",
  await withTmp(async (dir) => {
    if (!(await smallDisk(dir))) return "mounting a tmpfs needs root (mount -t tmpfs)";
    await unmount(dir);
    return null;
  }),
);

Deno.test(needs(TMPFS, {
  name: "--out on a disk that fills up mid-suite: the result goes to results/, exit 1",
  fn: () =>
    withTmp(async (tmp) => {
      const disk = `${tmp}/disk`;
      await Deno.mkdir(disk);
      assert(await smallDisk(disk), "a 24 KiB tmpfs mounted");
      try {
        const cli = await runCli([...SUITE, "--out", `${disk}/r.json`], { TMPDIR: tmp, CHECKPOINTS: tmp });
        assertEquals(cli.code, 1, cli.stderr);
        await keptFile(cli.stderr, /^no space left on device$/);
      } finally {
        await unmount(disk);
      }
    }),
}));

Deno.test("an --out that cannot be written is refused before any load: the path and why", () =>
  withTmp(async (tmp) => {
    const file = `${tmp}/file.txt`;
    await Deno.writeTextFile(file, "");
    const cases: [string, string][] = [
      [tmp, `it is a folder; give a file path, for example ${tmp}/rtbench.json`],
      [`${tmp}/`, "it names a folder; give a file path"],
      [`${file}/r.json`, "a part of the path is a file, not a folder"],
      ["/proc/r.json", "rtbench writes no files under /dev, /proc or /sys"],
    ];
    for (const [out, why] of cases) {
      const cli = await runCli(["-w", "http-json", "-r", "deno", "--out", out], { TMPDIR: tmp });
      assertEquals(cli.code, 2, cli.stderr);
      assertEquals(cli.stderr.trim(), `rtbench: --out: cannot write ${out} (${why})`);
    }
    // A missing folder is made, and removed again when nothing was written into it.
    const refused = await runCli(["-w", "http-json", "--runs", "0", "--out", `${tmp}/new/deeper/r.json`], {
      TMPDIR: tmp,
    });
    assertEquals(refused.code, 2, refused.stderr);
    assertEquals((await entries(tmp)).sort(), ["file.txt"]);
  }));
