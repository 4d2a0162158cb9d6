// rtbench --server-cpus on Node.js: node:cluster, one worker per CPU ($RTBENCH_WORKERS), each running the
// server file given as the first argument; the primary hands the listening socket's connections to them in turn.
import cluster from "node:cluster";

const [file, ...args] = process.argv.slice(2);
const workers = Number(process.env.RTBENCH_WORKERS ?? 1);
let stopping = false;

cluster.setupPrimary({ exec: file, args });
for (let i = 0; i < workers; i++) cluster.fork();

cluster.on("exit", (_worker, code, signal) => {
  // A worker that dies takes the server with it, so that rtbench sees the exit and says why.
  if (!stopping) {
    console.error(`rtbench: a node:cluster worker exited with ${signal ?? code}`);
    process.exit(code || 1);
  }
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
});

// rtbench signals the whole process group: the workers finish their requests, the primary waits for them.
process.on("SIGTERM", () => {
  stopping = true;
});
