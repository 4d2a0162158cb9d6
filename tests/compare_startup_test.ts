// deno task compare-startup really runs hyperfine beside rtbench's timer on the startup workload's exact commands.
import { assertEquals, assertMatch } from "@std/assert";
import { needs, tool } from "./_needs.ts";
import { ROOT } from "./_helpers.ts";

const HYPERFINE = tool("hyperfine", "apt-get install hyperfine");

// README (Checking the timer against hyperfine): "runs the startup workload's exact commands with rtbench's timer and
// with hyperfine --shell=none … and prints each median and the ratio".
Deno.test(needs(HYPERFINE, {
  name: "compare-startup times deno's hello with rtbench's timer and with hyperfine, and prints both medians",
  async fn() {
    const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
    const words: string[] = tasks["compare-startup"].split(" ");
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...words.slice(1, -1), `${ROOT}${words.at(-1)}`, "--runtime", "deno", "--variant", "hello"]
        .concat(["--rounds", "2", "--batch", "2"]),
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, text);
    assertMatch(text, /rtbench's process timer vs hyperfine \d+\.\d+/);
    // Both medians in milliseconds, their ratio, and every round's runs by both.
    assertMatch(text, /deno \S+ hello\s+[\d.]+ ms\s+[\d.]+ ms\s+[\d.]+\s+4 \/ 4\s+(yes|NO)/);
  },
}));
