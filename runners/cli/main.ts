/**
 * `rtbench <command> [flags]`: the one command line of rtbench. Each
 * `deno task` of a checkout (`bench`, `report`, ...) is this file with its
 * command, and from JSR it is `deno run -A jsr:@rtbench/rtbench/cli <command>`.
 *
 * A command's module is loaded only when it is chosen, so the commands that
 * read results (`report`, `compare`, `trend`) load none of the measuring code.
 *
 * Exit codes: those of the command; 0 for the help; 2 for an unknown command.
 *
 * @example Render a stored result as Markdown
 * ```sh
 * deno run -A jsr:@rtbench/rtbench/cli report results/rtbench.json --format md
 * ```
 *
 * @module
 */

/**
 * A command's module: `entry` runs the command as a program and exits with its code.
 *
 * @example A command's module, loaded as the command line loads it
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { COMMANDS, type CommandModule } from "./main.ts";
 *
 * const report: CommandModule = await COMMANDS.find((c) => c.name === "report")!.load();
 * assertEquals(typeof report.entry, "function");
 * ```
 */
export interface CommandModule {
  /** Runs the command with `args` (the arguments after its name) and exits the process with its code. */
  entry(args: string[]): Promise<never>;
}

/**
 * One command of {@linkcode COMMANDS}.
 *
 * @example The command `rtbench run` names
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type Command, commandOf } from "./main.ts";
 *
 * const bench: Command | undefined = commandOf("run");
 * assertEquals([bench?.name, bench?.aliases], ["bench", ["run"]]);
 * ```
 */
export interface Command {
  /** The name it is called by. */
  readonly name: string;
  /** Other names it answers to. */
  readonly aliases: readonly string[];
  /** What it does, in one line for the help. */
  readonly summary: string;
  /** Loads its module (only when it is chosen). */
  readonly load: () => Promise<CommandModule>;
}

/**
 * The commands of `rtbench`, in the order the help lists them.
 *
 * @example The six commands
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { COMMANDS } from "./main.ts";
 *
 * assertEquals(COMMANDS.map((c) => c.name), ["bench", "report", "compare", "trend", "calibrate", "reproduce"]);
 * ```
 */
export const COMMANDS: readonly Command[] = [
  {
    name: "bench",
    aliases: ["run"],
    summary: "measure runtimes on verified workloads and write a result file",
    load: () => import("./bench.ts"),
  },
  {
    name: "report",
    aliases: [],
    summary: "render a stored result file as a table, Markdown, CSV, JSON or HTML",
    load: () => import("./report.ts"),
  },
  {
    name: "compare",
    aliases: [],
    summary: "is head faster or slower than base, beyond run-to-run noise?",
    load: () => import("./compare.ts"),
  },
  {
    name: "trend",
    aliases: [],
    summary: "every workload × runtime of a history over time and versions",
    load: () => import("./trend.ts"),
  },
  {
    name: "calibrate",
    aliases: [],
    summary: "each load generator's ceiling on this machine",
    load: () => import("./calibrate.ts"),
  },
  {
    name: "reproduce",
    aliases: [],
    summary: "the published comparisons' experiments, run again on this machine",
    load: () => import("./reproduce.ts"),
  },
];

/**
 * The help of `rtbench`: every command with one line; `rtbench <command>
 * --help` shows the command's own.
 *
 * @returns The help text, without a trailing newline.
 *
 * @example The usage line
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { helpText } from "./main.ts";
 *
 * assertStringIncludes(helpText(), "Usage: rtbench <command> [flags]");
 * ```
 */
export function helpText(): string {
  const names = COMMANDS.map((c) => [c.name, ...c.aliases].join(", "));
  const width = Math.max(...names.map((n) => n.length));
  return [
    "rtbench: benchmark JavaScript runtimes on the same verified workloads",
    "",
    "Usage: rtbench <command> [flags]   (in a checkout: deno task <command> [flags])",
    "",
    "Commands:",
    ...COMMANDS.map((c, i) => `  ${names[i].padEnd(width)}  ${c.summary}`),
    "",
    "rtbench <command> --help shows the command's flags.",
  ].join("\n");
}

/**
 * The command `name` names (by its name or an alias); undefined when none does.
 *
 * @param name A command's name or alias, as given on the command line.
 * @returns The command, or undefined when no command has that name.
 *
 * @example An alias
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { commandOf } from "./main.ts";
 *
 * assertEquals(commandOf("run")?.name, "bench");
 * ```
 */
export function commandOf(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases.includes(name));
}

/**
 * Runs `rtbench` with `args`: the help (no arguments, `help`, `--help`, `-h`)
 * returns 0, an unknown command 2 with one line naming it; a command runs as
 * the program and exits with its own code.
 *
 * @param args The command-line arguments: the command, then its own arguments.
 * @returns The exit code (for the help and an unknown command; a command exits the process itself).
 *
 * @example The help is exit code 0
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { main } from "./main.ts";
 *
 * assertEquals(await main(["--help"]), 0);
 * ```
 */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    console.log(helpText());
    return 0;
  }
  const command = commandOf(name);
  if (command === undefined) {
    const what = name.startsWith("-")
      ? `unknown flag ${name.split("=")[0]} before the command`
      : `unknown command "${name}"`;
    console.error(`rtbench: ${what} (commands: ${COMMANDS.map((c) => c.name).join(", ")}; see rtbench --help)`);
    return 2;
  }
  return await (await command.load()).entry(rest);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
