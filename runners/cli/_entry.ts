// The life of a command that only reads (report, compare, trend): it starts no process and makes no temporary path,
// so it needs none of runners/platform's process plumbing. Bad input (or a RangeError) is one line and exit 2, any
// other error one line and exit 1, the stack only with --debug; the same lines runners/platform/entry.ts prints.

import { isUsageError } from "./_usage.ts";

/** One line for an error: its message only, without the stack. */
function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] || (error instanceof Error ? error.name : "unknown error");
}

/** Runs `body` as the command `name` (the prefix of its messages) and exits with its code. */
export async function runReading(name: string, args: readonly string[], body: () => Promise<number>): Promise<never> {
  const debug = args.includes("--debug");
  let code: number;
  try {
    code = await body();
  } catch (error) {
    const usage = isUsageError(error) || error instanceof RangeError;
    console.error(`${name}: ${errorLine(error)}${usage || debug ? "" : " (--debug shows the stack)"}`);
    if (debug && error instanceof Error && error.stack) console.error(error.stack);
    code = usage ? 2 : 1;
  }
  Deno.exit(code);
}

/** Writes `text` to stdout in full (a pipe may take it in parts). */
export async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}
