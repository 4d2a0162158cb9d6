// docs/method.md "The environment of every process": on another machine (`--server-host`, `--client-host`) a process
// gets the same built environment, not the ssh session's: that host's own PATH, HOME, TMPDIR and locale, the
// `--pass-env` names, and what rtbench sets, each told back and listed on the record with the host it ran on. The lab
// is tests/_netns.ts: a real sshd in a network namespace.
import { assert, assertEquals } from "@std/assert";
import { makeLab, netnsUnavailable } from "../_netns.ts";
import { condition, needs } from "../_needs.ts";
import { ROOT } from "../_helpers.ts";
import type { SpawnNotice } from "../../runners/platform/process.ts";

const NETNS = condition("network namespaces with an sshd in each", await netnsUnavailable());

/** Runs `env` on the server host through rtbench's launcher, without and with --pass-env SSH_CONNECTION. */
const PROBE = `
import { parseHostSpec, SshHost } from "${ROOT}runners/platform/ssh.ts";
import { withChildEnv } from "${ROOT}runners/platform/process.ts";
const [address, configFile] = Deno.args;
const host = new SshHost(parseHostSpec(address, "--server-host"), { configFile });
await host.connect();
const notices = [];
const envOf = (pass) => withChildEnv({ pass, notice: (n) => notices.push(n) }, async () => {
  const p = host.launch(["env", "RTBENCH_OWN=1", "env"], { cwd: host.dir, role: "server" });
  await p.group.finished();
  return { stdout: p.group.stdout(), stderr: p.stderr() };
});
const plain = await envOf([]);
const passed = await envOf(["SSH_CONNECTION"]);
await host.close();
console.log(JSON.stringify({ plain, passed, notices }));
`;

function parse(text: string): Record<string, string> {
  return Object.fromEntries(
    text.trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

Deno.test(needs(NETNS, {
  name:
    "a process on another host gets that host's PATH, HOME, TMPDIR and locale and what rtbench sets, not the ssh session's",
  sanitizeResources: false,
  async fn() {
    const lab = await makeLab();
    try {
      const script = `${lab.dir}/probe.ts`;
      await Deno.writeTextFile(script, PROBE);
      const out = await new Deno.Command("ip", {
        args: [
          "netns",
          "exec",
          lab.harness.ns,
          Deno.execPath(),
          "run",
          "-A",
          "--quiet",
          script,
          "198.18.0.2",
          lab.sshConfig,
        ],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      assert(out.success, new TextDecoder().decode(out.stderr));
      const { plain, passed, notices } = JSON.parse(text) as {
        plain: { stdout: string; stderr: string };
        passed: { stdout: string; stderr: string };
        notices: SpawnNotice[];
      };
      const env = parse(plain.stdout);
      // sshd gives the session SSH_CONNECTION, USER, SHELL, LOGNAME, MAIL: none of it reaches the process.
      assertEquals(Object.keys(env).sort(), ["HOME", "PATH", "RTBENCH_OWN", "TMPDIR"]);
      assertEquals([env.HOME, env.TMPDIR, env.RTBENCH_OWN], ["/root", lab.hosts.server.tmp, "1"]);
      // The launcher's own lines are not the process's output.
      assertEquals(plain.stderr, "");
      // Asked for, the host's own value of a variable is kept.
      assert(/^198\.18\.0\.\d+ \d+ 198\.18\.0\.2 22$/.test(parse(passed.stdout).SSH_CONNECTION ?? ""), passed.stdout);
      // Each is listed, on its host, with exactly what it got.
      assertEquals(notices.map((n) => [n.role, n.program, n.host]), [
        ["server", "env", "198.18.0.2"],
        ["server", "env", "198.18.0.2"],
      ]);
      assertEquals(notices[0].env, env);
      assertEquals(notices[1].env, parse(passed.stdout));
    } finally {
      await lab.close();
    }
  },
}));
