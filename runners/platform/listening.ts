/**
 * The TCP ports a process tree listens on, read from Linux's `/proc`: the listening sockets of the tree's network
 * namespace (`net/tcp`, `net/tcp6`) whose inodes are among the open files of the tree's processes. A server that
 * ignores `PORT` is found this way within a second instead of after the start timeout.
 *
 * Deno refuses these reads without `--allow-all`, so one `sh` reads them all (`ps`, `ls` and `awk` beside it), told
 * which session on its stdin: its script is a constant.
 *
 * @module
 */

import { runCommand } from "./process.ts";

// The tree's session comes on stdin (rtbench starts every child as a session leader); out go the socket links of the
// session's processes, a line `--`, then every listening socket of its namespace as `<hex address:port> <inode>`.
const SCRIPT = `read -r s
fds=""
for p in $(ps -s "$s" -o pid= 2>/dev/null); do fds="$fds /proc/$p/fd"; done
if [ -n "$fds" ]; then ls -l $fds 2>/dev/null; fi
echo --
awk '$4 == "0A" { print $2, $10 }' "/proc/$s/net/tcp" "/proc/$s/net/tcp6" 2>/dev/null`;

/**
 * The ports the helper's output says the tree listens on, ascending.
 *
 * @param text What the helper printed: `ls -l` lines of the tree's file descriptors, `--`, listening sockets.
 * @returns The ports of the listening sockets the tree holds open.
 *
 * @example A tree holding one of two listening sockets
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseListening } from "./listening.ts";
 *
 * const text = "lrwx------ 1 root root 64 Nov 22 14:00 18 -> socket:[4242]\n--\n" +
 *   "0100007F:0BB8 4242\n00000000000000000000000000000000:1F90 777\n";
 * assertEquals(parseListening(text), [3000]);
 * ```
 */
export function parseListening(text: string): number[] {
  const lines = text.split("\n");
  const split = lines.indexOf("--");
  const held = new Set(lines.slice(0, split).flatMap((l) => [...l.matchAll(/socket:\[(\d+)\]/g)].map((m) => m[1])));
  const ports = new Set<number>();
  for (const line of lines.slice(split + 1)) {
    const [address, inode] = line.trim().split(" ");
    if (inode !== undefined && held.has(inode)) ports.add(parseInt(address.slice(address.lastIndexOf(":") + 1), 16));
  }
  return [...ports].sort((a, b) => a - b);
}

/**
 * The TCP ports the processes of session `session` listen on, ascending; empty while they listen on none; null where
 * this cannot be read (not Linux, no `/proc`, the helper failed).
 *
 * @param session The session id: the pid of a process rtbench started (each is a session leader).
 * @returns The ports, or null.
 *
 * @example The ports of a server rtbench started
 * ```ts ignore
 * import { listeningPorts } from "./listening.ts";
 * console.log(await listeningPorts(server.group.pid)); // [3000]
 * ```
 */
export async function listeningPorts(session: number): Promise<number[] | null> {
  if (Deno.build.os !== "linux") return null;
  const out = await runCommand(["sh", "-c", SCRIPT], { stdin: `${session}\n`, timeoutMs: 5000, listed: false });
  return out.success && out.stdout.split("\n").includes("--") ? parseListening(out.stdout) : null;
}
