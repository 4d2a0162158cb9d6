// The staging script's local tar (runners/platform/ssh.ts): a tar that failed says so, but GNU tar's exit 1 ("file
// changed as we read it", a hard link another rtbench made to a cached file) sends the whole archive and passes.
// Fake tars on PATH stand in for each case; the receiving side is `cat`.
import { assertEquals } from "@std/assert";
import { PUT_FAILED, PUT_SCRIPT } from "../../runners/platform/ssh.ts";
import { withTmp } from "../_helpers.ts";

/** What the script's receiver got and its stderr, with a fake tar that prints `version` and exits `code`. */
async function put(tmp: string, code: number, version: string): Promise<[string, string]> {
  await Deno.writeTextFile(
    `${tmp}/tar`,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo "${version}"; exit 0; fi\necho archive\nexit ${code}\n`,
    { mode: 0o755 },
  );
  const out = await new Deno.Command("sh", {
    args: ["-c", PUT_SCRIPT, "rtbench", tmp, "cat"],
    env: { PATH: `${tmp}:${Deno.env.get("PATH")}` },
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  return [text.decode(out.stdout), text.decode(out.stderr).trim()];
}

Deno.test("staging: GNU tar's exit 1 (a file's ctime changed) passes; bsdtar's 1 and any 2 are failures", () =>
  withTmp(async (tmp) => {
    assertEquals(await put(tmp, 0, "tar (GNU tar) 1.34"), ["archive\n", ""]);
    assertEquals(await put(tmp, 1, "tar (GNU tar) 1.34"), ["archive\n", ""]);
    assertEquals(await put(tmp, 1, "bsdtar 3.6.2 - libarchive 3.6.2"), ["archive\n", PUT_FAILED]);
    assertEquals(await put(tmp, 2, "tar (GNU tar) 1.34"), ["archive\n", PUT_FAILED]);
  }));
