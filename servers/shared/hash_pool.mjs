// The signup workload's `worker-pool` variant: bcryptjs moved off the main thread into a pool of workers, as 003 did
// on Deno with Web Workers: Web Workers on Deno and Bun, node:worker_threads on Node.js (which has no Web Worker).
// Requests go to the workers in turn; each worker hashes one password at a time.

const web = Boolean(globalThis.Deno || globalThis.Bun);

/** Starts `size` workers hashing at `cost`; returns `hash(password) → Promise<string>`. */
export async function hashPool(size, cost) {
  const url = new URL("./hash_worker.mjs", import.meta.url);
  const pending = new Map();
  const done = ({ id, hash, error }) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (error) waiting.reject(new Error(error));
    else waiting.resolve(hash);
  };
  const workers = [];
  const { Worker: NodeWorker } = web ? {} : await import("node:worker_threads");
  for (let i = 0; i < size; i++) {
    if (web) {
      const worker = new Worker(url.href, { type: "module" });
      worker.onmessage = (event) => done(event.data);
      workers.push(worker);
    } else {
      const worker = new NodeWorker(url);
      worker.on("message", done);
      workers.push(worker);
    }
  }
  let id = 0;
  return (password) =>
    new Promise((resolve, reject) => {
      const n = id++;
      pending.set(n, { resolve, reject });
      workers[n % size].postMessage({ id: n, password, cost });
    });
}
