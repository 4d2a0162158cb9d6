// rtbench --server-cpus on Bun: one process per CPU ($RTBENCH_WORKERS), each running the server file given as
// the first argument with Bun.serve's reusePort, so that the kernel spreads connections over them.
const [file, ...args] = process.argv.slice(2);
const workers = Number(process.env.RTBENCH_WORKERS ?? 1);
let stopping = false;

const children = Array.from({ length: workers }, () =>
  Bun.spawn([process.execPath, file, ...args], {
    env: { ...process.env, RTBENCH_REUSE_PORT: "1" },
    stdio: ["ignore", "inherit", "inherit"],
  }));

// rtbench signals the whole process group: the servers finish their requests, this process waits for them.
process.on("SIGTERM", () => {
  stopping = true;
});

const code = await Promise.race(children.map((child) => child.exited));
if (!stopping) {
  // A server that dies takes the others with it, so that rtbench sees the exit and says why.
  console.error(`rtbench: a reusePort server exited with ${code}`);
  for (const child of children) child.kill();
  process.exit(code || 1);
}
await Promise.all(children.map((child) => child.exited));
process.exit(0);
