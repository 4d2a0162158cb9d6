/**
 * TCP ports: a free one from the OS, and why a server could not listen on a
 * given one (asked by listening there for a moment).
 *
 * @module
 */

/** Asks the OS for a free TCP port on `host`. */
export function freePort(host = "127.0.0.1"): number {
  const listener = Deno.listen({ hostname: host, port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Why a server cannot listen on `host`:`port` right now (`port 3000 is in use`),
 * or null when it can. Tried by listening there for a moment.
 *
 * @example
 * ```ts
 * import { cannotListen } from "./ports.ts";
 * console.log(cannotListen("127.0.0.1", 0)); // null
 * ```
 */
export function cannotListen(host: string, port: number): string | null {
  try {
    Deno.listen({ hostname: host, port }).close();
    return null;
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) return `port ${port} is in use`;
    if (error instanceof Deno.errors.AddrNotAvailable) return `address ${host} is not available here`;
    if (error instanceof Deno.errors.PermissionDenied) return `port ${port} needs privileges`;
    return (error as Error).message.split(" (os error")[0];
  }
}
