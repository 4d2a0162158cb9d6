// The load engine's transport: a TCP connection through Bun.connect on Bun, Deno.connect on Deno, behind the same
// three callbacks, and the process's stdin and stdout on either. Everything else in the engine is the same code on both.

/** A connection's transport: Bun's socket or Deno's conn behind the same two calls. */
export interface Transport {
  write(bytes: Uint8Array): void;
  close(): void;
}

/** What a connection is told: it opened, bytes arrived, it closed. */
export interface Handlers {
  open(t: Transport): void;
  data(chunk: Uint8Array): void;
  closed(): void;
}

interface BunSocket {
  write(data: Uint8Array): number;
  end(): void;
  setNoDelay?(on: boolean): void;
}

interface BunApi {
  version: string;
  stdin: { text(): Promise<string> };
  stdout: unknown;
  write(destination: unknown, data: Uint8Array): Promise<number>;
  connect(options: {
    hostname: string;
    port: number;
    socket: {
      open(s: BunSocket): void;
      data(s: BunSocket, d: Uint8Array): void;
      drain(s: BunSocket): void;
      close(s: BunSocket): void;
      error(s: BunSocket, e: Error): void;
      connectError?(s: BunSocket, e: Error): void;
    };
  }): Promise<BunSocket>;
}

const bun = (globalThis as { Bun?: BunApi }).Bun;

function connectBun(hostname: string, port: number, h: Handlers): void {
  let queued: Uint8Array | null = null;
  let done = false;
  const finish = () => {
    if (!done) {
      done = true;
      h.closed();
    }
  };
  const flush = (s: BunSocket) => {
    while (queued) {
      const n = s.write(queued);
      if (n < 0) return;
      queued = n >= queued.length ? null : queued.subarray(n);
      if (queued) return;
    }
  };
  bun!.connect({
    hostname,
    port,
    socket: {
      open(s) {
        s.setNoDelay?.(true);
        h.open({
          write(bytes) {
            if (queued) {
              const joined = new Uint8Array(queued.length + bytes.length);
              joined.set(queued);
              joined.set(bytes, queued.length);
              queued = joined;
              return;
            }
            const n = s.write(bytes);
            if (n < bytes.length) queued = bytes.subarray(Math.max(0, n));
          },
          close: () => s.end(),
        });
      },
      data: (_s, d) => h.data(d),
      drain: (s) => flush(s),
      close: finish,
      error: finish,
      connectError: finish,
    },
  }).catch(finish);
}

function connectDeno(hostname: string, port: number, h: Handlers): void {
  (async () => {
    const conn = await Deno.connect({ hostname, port });
    conn.setNoDelay(true);
    let writing = Promise.resolve();
    let closed = false;
    h.open({
      write(bytes) {
        writing = writing.then(async () => {
          for (let at = 0; at < bytes.length && !closed;) at += await conn.write(bytes.subarray(at));
        }).catch(() => {});
      },
      close() {
        if (!closed) {
          closed = true;
          try {
            conn.close();
          } catch { /* already closed */ }
        }
      },
    });
    const buf = new Uint8Array(64 * 1024);
    try {
      while (!closed) {
        const n = await conn.read(buf);
        if (n === null) break;
        h.data(buf.subarray(0, n));
      }
    } finally {
      if (!closed) {
        closed = true;
        try {
          conn.close();
        } catch { /* already closed */ }
      }
    }
  })().catch(() => {}).finally(() => h.closed());
}

/** How a connection is opened: to `hostname:port`, telling `h` what happens. */
export type Connect = (hostname: string, port: number, h: Handlers) => void;

/** Opens a TCP connection on whichever runtime runs the engine. */
export const connect: Connect = bun ? connectBun : connectDeno;
/** The runtime the engine runs on, `bun 1.4.5` or `deno 2.9.6`. */
export const runtime: string = bun ? `bun ${bun.version}` : `deno ${Deno.version.deno}`;

/** The whole of stdin. */
export async function readStdin(): Promise<string> {
  if (bun) return await bun.stdin.text();
  return await new Response(Deno.stdin.readable).text();
}

/** Writes `text` to stdout and ends the process (sockets still draining must not keep it alive). */
export async function writeStdoutAndExit(text: string): Promise<never> {
  const bytes = new TextEncoder().encode(text);
  if (bun) {
    await bun.write(bun.stdout, bytes);
    // Sockets closed from this side may still be draining; the measurement is done.
    (globalThis as unknown as { process: { exit(code: number): never } }).process.exit(0);
  }
  await Deno.stdout.write(bytes);
  Deno.exit(0);
}

/** CPU time of this process in microseconds, where the runtime can tell. */
export function cpuUs(): number | null {
  const p = (globalThis as { process?: { cpuUsage?(): { user: number; system: number } } }).process;
  const u = p?.cpuUsage?.();
  return u ? u.user + u.system : null;
}

/** Reads this process's CPU time when a window opens and ends, into `into.cpuUs`. */
export function cpuEdges(into: { cpuUs: number | null }): { open(): void; end(): void } {
  let atOpen: number | null = null;
  return {
    open: () => atOpen = cpuUs(),
    end: () => {
      const now = cpuUs();
      if (atOpen !== null && now !== null) into.cpuUs = now - atOpen;
    },
  };
}
