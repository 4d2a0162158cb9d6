/**
 * The children reaper: a tiny process of its own session that outlives the
 * harness. The harness tells it, one JSON object per line on its stdin, which
 * process groups and temporary paths it owns and which it has released. When
 * stdin reaches end-of-file — the harness exited, normally, by a signal, or
 * killed outright with SIGKILL — it stops every group still owned (SIGTERM,
 * then SIGKILL after a grace) and removes every path still owned, then exits.
 *
 * It does nothing while the harness lives: it blocks on reading its stdin.
 *
 * Messages: `{"group":123}` owns process group 123, `{"released":123}` gives
 * it up; `{"path":"/tmp/rtbench-x"}` owns a path, `{"removed":"/tmp/rtbench-x"}`
 * gives it up.
 *
 * @module
 */

/** Milliseconds a group gets after SIGTERM before SIGKILL. */
const GRACE_MS = 2000;

const groups = new Set<number>();
const paths = new Set<string>();

function apply(line: string): void {
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (Number.isInteger(message.group) && (message.group as number) > 1) groups.add(message.group as number);
  if (typeof message.released === "number") groups.delete(message.released);
  // Only paths rtbench named: a temporary directory or file it made, never anything else.
  if (typeof message.path === "string" && /\/\.?rtbench-|\/\.install-|\/\.[a-z]+-[^/]*$/.test(message.path)) {
    paths.add(message.path);
  }
  if (typeof message.removed === "string") paths.delete(message.removed);
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

const decoder = new TextDecoder();
let pending = "";
for await (const chunk of Deno.stdin.readable) {
  pending += decoder.decode(chunk, { stream: true });
  let newline;
  while ((newline = pending.indexOf("\n")) >= 0) {
    apply(pending.slice(0, newline));
    pending = pending.slice(newline + 1);
  }
}
if (pending) apply(pending);

// The harness is gone. SIGCONT probes whether a group still has members without harming them.
let alive = [...groups].filter((g) => signal(g, "SIGTERM"));
const deadline = Date.now() + GRACE_MS;
while (alive.length > 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 50));
  alive = alive.filter((g) => signal(g, "SIGCONT"));
}
for (const g of alive) signal(g, "SIGKILL");
for (const path of paths) {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // Already removed.
  }
}
