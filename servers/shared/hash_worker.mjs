// One worker of the signup workload's hashing pool: bcryptjs, synchronously (a worker has nothing else to do), for
// each {id, password, cost} it is sent; answers {id, hash} or {id, error}. A Web Worker on Deno and Bun, a
// worker_threads worker on Node.js.
import bcryptjs from "bcryptjs";

const port = globalThis.Deno || globalThis.Bun ? null : (await import("node:worker_threads")).parentPort;
const post = (message) => port ? port.postMessage(message) : self.postMessage(message);

function hash({ id, password, cost }) {
  try {
    post({ id, hash: bcryptjs.hashSync(password, cost) });
  } catch (error) {
    post({ id, error: String(error) });
  }
}

if (port) port.on("message", hash);
else self.onmessage = (event) => hash(event.data);
