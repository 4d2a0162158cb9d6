// docs/method.md "The environment of every process": every process rtbench starts gets an environment it builds — PATH,
// HOME, TMPDIR and the locale from rtbench's own, the variables rtbench sets, and for installs and provisioning what
// reaches a registry — and nothing else unless `--pass-env` names it; each variable known to change a runtime (the
// union of the adapters' lists, runtimeVariables()) has a test here: set in rtbench's environment, a real child does
// not get it, `--pass-env` gives it to every child, and the result says which happened.
// Runs alone: it sets the process's environment, which every file running beside it would share.
import { assert, assertEquals, assertMatch } from "@std/assert";
import {
  buildChildEnv,
  type EnvPurpose,
  INHERITED,
  matchesName,
  recordableValue,
  REGISTRY_ACCESS,
  variableReport,
} from "../../runners/platform/child_env.ts";
import { knownVariable, type RuntimeVariable } from "../../runners/platform/runtime_variables.ts";
import { builtinAdapters, runtimeVariables } from "../../adapters/mod.ts";
import { LIBC_VARIABLES } from "../../adapters/_libc_variables.ts";
import { runCommand, type SpawnNotice, withChildEnv } from "../../runners/platform/process.ts";
import { SpawnedProcesses } from "../../runners/kinds/spawned.ts";
import { timeRuns, wait4Timer } from "../../runners/drivers/process_timer.ts";
import { withEnv } from "../_helpers.ts";
import { needs, tool } from "../_needs.ts";

const PYTHON = tool("python3", "apt-get install python3");

/** What a real child got: `env -0` run through rtbench's spawn, as `purpose` (and with `pass` kept). */
async function childSees(purpose: EnvPurpose, pass: string[] = []): Promise<Record<string, string>> {
  const out = await withChildEnv({ pass }, () => runCommand(["env", "-0"], { purpose, timeoutMs: 10_000 }));
  assert(out.success, out.stderr);
  return Object.fromEntries(
    out.stdout.split("\0").filter(Boolean).map((
      line,
    ) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/** The name and value an entry's test sets: the entry's own name, or for a family the member its example names. */
function sample(entry: RuntimeVariable): [string, string] {
  if (!entry.name.endsWith("*")) return [entry.name, entry.example];
  const eq = entry.example.indexOf("=");
  return [entry.example.slice(0, eq), entry.example.slice(eq + 1)];
}

const KNOWN = runtimeVariables();

for (const entry of KNOWN) {
  const [name, value] = sample(entry);
  Deno.test(`${name} (${entry.changes}) in rtbench's environment: no runtime gets it, --pass-env keeps it, the result says which`, async () => {
    // The example names a member of its own family, and nothing more specific takes it over.
    assertEquals(knownVariable(name, KNOWN), entry);
    await withEnv({ [name]: value }, async () => {
      const registry = matchesName(name, REGISTRY_ACCESS);
      assertEquals((await childSees("runtime"))[name], undefined, `a runtime process got ${name}`);
      // Installs and provisioning get it only when it is what reaches a registry (a CA bundle, npm's config).
      assertEquals((await childSees("registry"))[name], registry ? value : undefined);
      assertEquals((await childSees("runtime", [name]))[name], value, "--pass-env keeps it for every process");
      const dropped = variableReport(Deno.env.toObject(), [], KNOWN).known.find((k) => k.name === name);
      assertEquals(dropped?.fate, registry ? "installs only" : "dropped");
      assertEquals(dropped?.changes, `${entry.changes}: ${entry.effect}`);
      const kept = variableReport(Deno.env.toObject(), [name], KNOWN).known.find((k) => k.name === name);
      assertEquals(kept?.fate, "kept (--pass-env)");
    });
  });
}

Deno.test("a child gets PATH, HOME, TMPDIR and the locale of rtbench's environment and what rtbench sets, nothing else", async () => {
  const marker = `rtbench-child-env-${Deno.pid}`;
  await withEnv({ RTBENCH_TEST_UNRELATED: marker, LC_MEASUREMENT: "C" }, async () => {
    const seen = await withChildEnv({}, () => runCommand(["env", "-0"], { env: { PORT: "4000" }, timeoutMs: 10_000 }));
    const names = seen.stdout.split("\0").filter(Boolean).map((l) => l.slice(0, l.indexOf("="))).sort();
    const expected = Object.keys(Deno.env.toObject()).filter((n) => matchesName(n, INHERITED)).concat("PORT").sort();
    assertEquals(names, expected);
    assert(names.includes("PATH") && names.includes("LC_MEASUREMENT"));
    assert(!seen.stdout.includes(marker), "an unrelated variable reached the child");
  });
});

Deno.test("rtbench's own programs on its Deno get DENO_DIR and registry access, the local ssh the agent; no runtime does", async () => {
  const set = { DENO_DIR: "/tmp/rtbench-deno-dir", SSH_AUTH_SOCK: "/tmp/agent.sock", HTTPS_PROXY: "http://proxy:3128" };
  await withEnv(set, async () => {
    const pick = (env: Record<string, string>) => Object.keys(set).filter((k) => k in env);
    assertEquals(pick(await childSees("runtime")), []);
    assertEquals(pick(await childSees("harness")), ["DENO_DIR", "HTTPS_PROXY"]);
    assertEquals(pick(await childSees("registry")), ["HTTPS_PROXY"]);
    assertEquals(pick(await childSees("ssh")), ["SSH_AUTH_SOCK"]);
  });
});

Deno.test(needs(PYTHON, {
  name: "a process timed through python's wait4 gets exactly the listed environment, not python's additions",
  async fn() {
    // Under the C locale Python coerces LC_CTYPE into its own environment (PEP 538); the timed process must not see it.
    await withEnv({ LANG: "C" }, async () => {
      const told: SpawnNotice[] = [];
      const [run] = await withChildEnv({ notice: (s) => told.push(s) }, () =>
        timeRuns(wait4Timer(PYTHON.path!), {
          command: { argv: ["env"], cwd: "/tmp", env: { RTBENCH_OWN: "1" } },
          plan: { warmupRuns: 0, minRuns: 1, minDurationMs: 0 },
          cpus: null,
          scratchDir: "/tmp",
        }));
      const got = Object.fromEntries(
        run.stdout.trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      assertEquals(got.LC_CTYPE, undefined);
      assertEquals(told.map((s) => [s.role, s.program]), [["timed process", "env"]]);
      assertEquals(got, told[0].env);
    });
  },
}));

Deno.test("rtbench's own values win over the user's, and --pass-env keeps only the names it names", () => {
  const shell = { PATH: "/bin", NODE_ENV: "development", NODE_OPTIONS: "--inspect", EDITOR: "vi" };
  assertEquals(buildChildEnv(shell, { NODE_ENV: "production" }, "runtime", ["NODE_ENV"]), {
    PATH: "/bin",
    NODE_ENV: "production",
  });
  assertEquals(buildChildEnv(shell, {}, "runtime", ["NODE_OPTIONS"]), { PATH: "/bin", NODE_OPTIONS: "--inspect" });
});

Deno.test("the report counts the other variables dropped and names what --pass-env kept that is not on the list", () => {
  const env = { PATH: "/bin", LANG: "C", EDITOR: "vi", PAGER: "less", MY_FLAG: "1" };
  const report = variableReport(env, ["MY_FLAG"], KNOWN);
  // EDITOR and PAGER: dropped and not known to change a runtime; MY_FLAG kept on request; PATH and LANG inherited.
  assertEquals([report.otherDropped, report.known, report.passed], [2, [], ["MY_FLAG"]]);
});

Deno.test("a credential's value never reaches a result: by its name, or as the password of a URL", () => {
  for (const name of ["NPM_TOKEN", "NODE_AUTH_TOKEN", "DENO_AUTH_TOKENS", "AWS_SECRET_ACCESS_KEY", "PGPASSWORD"]) {
    assertEquals(recordableValue(name, "hunter2"), "<secret>", name);
  }
  assertEquals(
    recordableValue("DATABASE_URL", "postgres://rtbench:hunter2@127.0.0.1:5432/db"),
    "postgres://rtbench:<secret>@127.0.0.1:5432/db",
  );
  assertEquals(recordableValue("HOME", "/root"), "/root");
  const listed = new SpawnedProcesses();
  listed.add({ role: "server", program: "node", env: { NPM_TOKEN: "hunter2", PATH: "/bin" } });
  assertEquals(listed.list()[0].env, { NPM_TOKEN: "<secret>", PATH: "/bin" });
});

Deno.test("every process started inside a scope is told to it with what it got, and scopes side by side do not mix", async () => {
  const a: SpawnNotice[] = [];
  const b: SpawnNotice[] = [];
  await Promise.all([
    withChildEnv({ notice: (s) => a.push(s) }, () => runCommand(["true"], { env: { WHO: "a" }, role: "server" })),
    withChildEnv({ notice: (s) => b.push(s) }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      await runCommand(["env"], { env: { WHO: "b" } });
    }),
  ]);
  assertEquals(a.map((s) => [s.role, s.program, s.env.WHO]), [["server", "true", "a"]]);
  assertEquals(b.map((s) => [s.role, s.program, s.env.WHO]), [["env", "env", "b"]]);
  // Outside any scope nothing is told, and a process marked unlisted is never told.
  const c: SpawnNotice[] = [];
  await withChildEnv({ notice: (s) => c.push(s) }, () => runCommand(["true"], { listed: false }));
  assertEquals(c, []);
});

Deno.test("processes of one kind are listed once, with the names whose value changed between them", async () => {
  const listed = new SpawnedProcesses();
  await withChildEnv({ notice: listed.add }, async () => {
    for (const port of ["4001", "4002"]) {
      await runCommand(["true"], { env: { PORT: port, HOST: "::1" }, role: "server" });
    }
    await runCommand(["true"], { env: { NO_COLOR: "1" }, role: "load engine" });
  });
  const [server, engine, ...rest] = listed.list();
  assertEquals(rest, []);
  assertEquals([server.role, server.env.PORT, server.env.HOST, server.varying], ["server", "4001", "::1", ["PORT"]]);
  assertEquals([engine.role, engine.env.NO_COLOR, engine.varying], ["load engine", "1", undefined]);
});

// The list as it stood in one file of the platform layer before each runtime's adapter held its own part: moving the
// entries must lose none and add none.
const EXPECTED_NAMES = [
  ...["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NODE_USE_SYSTEM_CA", "NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE"],
  ...["NODE_ENV", "NODE_PATH", "NODE_PRESERVE_SYMLINKS", "NODE_DEBUG", "NODE_DEBUG_NATIVE", "NODE_V8_COVERAGE"],
  ...["NODE_ICU_DATA", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_USE_ENV_PROXY", "UV_THREADPOOL_SIZE", "UV_USE_IO_URING"],
  ...["OPENSSL_CONF", "SSL_CERT_FILE", "SSL_CERT_DIR", "TZ"],
  ...["DENO_V8_FLAGS", "DENO_DIR", "DENO_CERT", "DENO_TLS_CA_STORE", "DENO_SERVE_ADDRESS"],
  ...["DENO_SERVE_AUTOMATIC_COMPRESSION", "DENO_AUTO_SERVE", "DENO_JOBS", "DENO_USE_CGROUPS", "DENO_EMIT_CACHE_MODE"],
  ...["DENO_NO_PACKAGE_JSON", "DENO_COMPAT", "DENO_CONDITIONS", "DENO_*"],
  ...["BUN_OPTIONS", "BUN_JSC_*", "BUN_CONFIG_*", "BUN_RUNTIME_TRANSPILER_CACHE_PATH", "BUN_GARBAGE_COLLECTOR_LEVEL"],
  ...["BUN_*", "MALLOC_*", "GLIBC_TUNABLES", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_BIND_NOW", "DEBUG"],
  ...["GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GODEBUG", "GOFLAGS", "GOAMD64", "GOEXPERIMENT"],
  ...["RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_PROFILE_*", "RUSTUP_TOOLCHAIN"],
  ...["TOKIO_WORKER_THREADS", "RUST_BACKTRACE", "RUST_LIB_BACKTRACE"],
];

Deno.test("the adapters' lists and the C library's are the list of variables known to change a runtime, each name in one of them", () => {
  const held = [...builtinAdapters.flatMap((a) => a.variables ?? []), ...LIBC_VARIABLES];
  const names = held.map((v) => v.name);
  assertEquals(new Set(names).size, names.length, "a name listed twice");
  assertEquals(names.toSorted(), EXPECTED_NAMES.toSorted());
  assertEquals(KNOWN, held);
  for (const v of KNOWN) assertMatch(v.name, /^[A-Z][A-Z0-9_]*\*?$/);
});

// docs/method.md "The environment of every process": "Each runtime's adapter lists the variables known to change it
// …, and adapters/_libc_variables.ts those of the C library and its loader that change every runtime alike".
Deno.test("each entry is held by the adapter of a runtime it says it changes, or changes every runtime alike", () => {
  for (const adapter of builtinAdapters) {
    assert((adapter.variables ?? []).length > 0, `${adapter.name} lists no variable`);
    for (const v of adapter.variables ?? []) {
      assertMatch(v.changes, new RegExp(`\\b${adapter.name}\\b`), `${v.name} is held by ${adapter.name}`);
    }
  }
  for (const v of LIBC_VARIABLES) assertMatch(v.changes, /^every runtime\b/, v.name);
});

Deno.test("the entry a variable falls under does not depend on the order of the list, and an adapter's copy counts once", () => {
  const reversed = KNOWN.toReversed();
  for (const entry of KNOWN) {
    for (const name of [sample(entry)[0], entry.name.replace("*", "OTHER")]) {
      assertEquals(knownVariable(name, reversed), knownVariable(name, KNOWN), name);
    }
  }
  const jitless = { ...builtinAdapters.find((a) => a.name === "node")!, name: "node-jitless" };
  assertEquals(runtimeVariables([...builtinAdapters, jitless]), KNOWN);
});
