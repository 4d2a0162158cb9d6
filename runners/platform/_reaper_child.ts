/**
 * The children reaper (see `reaper.ts`): a small process of its own session
 * that watches one process, the harness, and once it has exited — normally,
 * by a signal, or killed outright with SIGKILL — stops every process group its
 * ledger still owns (SIGTERM, then SIGKILL after a grace), removes every
 * temporary path it still owns and the ledger, then exits.
 *
 * Arguments: the harness's pid and its ledger file. While the harness lives
 * it reads the harness's `/proc` stat every {@linkcode POLL_MS}: the start
 * time there tells the harness from a later process given its pid, and the
 * state a harness that has exited but is not yet collected by its parent (a
 * zombie) from one that runs. Deno reads `/proc` only with `--allow-all`,
 * which it runs with; it imports only the ledger's reading.
 *
 * @module
 */

import { owned } from "./_ledger_lines.ts";

/** Milliseconds between looks at the harness. */
const POLL_MS = 500;
/** Milliseconds a group gets after SIGTERM before SIGKILL. */
const GRACE_MS = 2000;

const [pidText, ledger] = Deno.args;
const harness = Number(pidText);

/** The harness's state and start time from `/proc`, or null when there is no such process. */
function stat(): { state: string; start: string } | null {
  try {
    const text = Deno.readTextFileSync(`/proc/${harness}/stat`);
    // After "pid (name) ": the state is field 3, the start time field 22.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], start: fields[19] };
  } catch {
    return null;
  }
}

const linux = Deno.build.os === "linux";
const first = linux ? stat() : null;
// Elsewhere, signal 0 tells whether the pid exists; Node's API has it (loaded only there: it costs a start-up).
const process = linux ? null : (await import("node:process")).default;

function running(): boolean {
  if (process) {
    try {
      process.kill(harness, 0);
      return true;
    } catch (error) {
      return (error as { code?: string }).code !== "ESRCH";
    }
  }
  const now = stat();
  return now !== null && now.start === first?.start && now.state !== "Z" && now.state !== "X";
}

function signal(pgid: number, name: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, name);
    return true;
  } catch {
    // ESRCH: the group is empty.
    return false;
  }
}

function remove(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // Already removed.
  }
}

while (running()) await new Promise((r) => setTimeout(r, POLL_MS));

// The harness is gone. SIGCONT probes whether a group still has members without harming them.
let text = "";
try {
  text = Deno.readTextFileSync(ledger);
} catch {
  // No ledger: the harness owned nothing when it ended.
}
const { groups, paths } = owned(text);
let alive = groups.filter((g) => signal(g, "SIGTERM"));
const deadline = Date.now() + GRACE_MS;
while (alive.length > 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 50));
  alive = alive.filter((g) => signal(g, "SIGCONT"));
}
for (const g of alive) signal(g, "SIGKILL");
for (const path of [...paths, ledger, `${ledger}.next`]) remove(path);
