// micro workload: one tinybench task, chosen by RTBENCH_TASK, timed inside the
// runtime. The same file runs on Node.js, Deno and Bun: what is measured is the
// engine and each runtime's JSON, crypto.randomUUID and URL implementations.
// Every result is folded into `sink`, which is printed, so no work can be dropped.
import { readFileSync } from "node:fs";
import process from "node:process";
import bcrypt from "bcryptjs";
import { Bench } from "tinybench";

const task = process.env.RTBENCH_TASK;
const time = Number(process.env.RTBENCH_TIME_MS);
const warmupTime = Number(process.env.RTBENCH_WARMUP_MS);
const payload = JSON.parse(readFileSync(new URL("./payload.json", import.meta.url), "utf8"));
const QUERY_URL = "https://shop.example.com/search?q=runtime+benchmarks&page=3&tags=deno&tags=node&tags=bun" +
  "&sort=price%3Aasc&utm_source=rtbench&empty=&emoji=%E2%98%95";
const PASSWORD = "correct horse battery staple";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let sink = 0;

function parseQuery(href) {
  const params = new URL(href).searchParams;
  const out = {};
  for (const key of params.keys()) out[key] = params.getAll(key);
  return out;
}

const TASKS = {
  json: {
    opsPerCall: 1,
    fn() {
      sink += JSON.parse(JSON.stringify(payload)).items.length;
    },
    sample: () => JSON.stringify(JSON.parse(JSON.stringify(payload))),
    selfCheck: (sample) => sample === JSON.stringify(payload),
  },
  uuid: {
    opsPerCall: 100,
    fn() {
      for (let i = 0; i < 100; i++) sink += crypto.randomUUID().charCodeAt(14);
    },
    sample: () => crypto.randomUUID(),
    selfCheck: () => {
      const seen = new Set(Array.from({ length: 1000 }, () => crypto.randomUUID()));
      return seen.size === 1000 && [...seen].every((u) => UUID_V4.test(u));
    },
  },
  bcrypt: {
    opsPerCall: 1,
    fn() {
      sink += bcrypt.hashSync(PASSWORD, 4).length;
    },
    sample: () => bcrypt.hashSync(PASSWORD, 4),
    selfCheck: (hash) => bcrypt.compareSync(PASSWORD, hash) && !bcrypt.compareSync(PASSWORD + "!", hash),
  },
  "url-query": {
    opsPerCall: 10,
    fn() {
      for (let i = 0; i < 10; i++) sink += parseQuery(QUERY_URL).tags.length;
    },
    sample: () => JSON.stringify(parseQuery(QUERY_URL)),
    selfCheck: (sample) => JSON.parse(sample).q[0] === "runtime benchmarks",
  },
};

const spec = TASKS[task];
if (!spec) {
  console.error(`Unknown RTBENCH_TASK "${task}" (known: ${Object.keys(TASKS).join(", ")})`);
  process.exit(2);
}
const sample = spec.sample();
const bench = new Bench({ time, warmupTime, timestampProvider: "auto", throws: true });
bench.add(task, spec.fn);
await bench.run();
const t = bench.tasks[0];
const r = t.result;
if (r.state !== "completed") {
  console.error(`tinybench task ${task} ended ${r.state}${r.error ? `: ${r.error.message}` : ""}`);
  process.exit(1);
}
console.log(JSON.stringify({
  task,
  opsPerCall: spec.opsPerCall,
  sample,
  selfCheck: spec.selfCheck(sample),
  sink,
  timer: r.timestampProviderName,
  detectedResolutionMs: t.detectedResolution ?? null,
  runtime: r.runtime,
  runtimeVersion: r.runtimeVersion,
  timeMs: time,
  warmupTimeMs: warmupTime,
  latencyMs: {
    mean: r.latency.mean,
    p50: r.latency.p50,
    p99: r.latency.p99,
    min: r.latency.min,
    max: r.latency.max,
    rme: r.latency.rme,
    samples: r.latency.samplesCount,
  },
  throughput: { mean: r.throughput.mean, p50: r.throughput.p50, p99: r.throughput.p99, rme: r.throughput.rme },
}));
