// The machine calibration's fixed work (`rtbench-calibration/1`), run by calibration.ts on the harness's Deno, pinned
// to one CPU: integer hashing over a buffer, floating point, a Map of objects, a sort and a JSON round trip — what a
// JavaScript server spends its CPU on, in one thread. One warm-up round, then the rounds asked for (the first
// argument); prints each round's milliseconds, a checksum that proves the work was done, and how many CPUs it was
// allowed to run on (its affinity: 1 when pinned). Never change the work without changing CALIBRATION_WORK in
// calibration.ts: results compare calibrations of the same work only.

function work(): number {
  const buf = new Uint8Array(65_536);
  for (let i = 0; i < buf.length; i++) buf[i] = (Math.imul(i, 2654435761) >>> 24) & 0xff;
  let hash = 2166136261;
  for (let pass = 0; pass < 32; pass++) {
    for (let i = 0; i < buf.length; i++) hash = Math.imul(hash ^ buf[i], 16777619) >>> 0;
  }
  let f = 0;
  for (let i = 1; i < 400_000; i++) f += Math.sqrt(i) * Math.sin(i);
  const map = new Map<number, { k: number; v: string }>();
  for (let i = 0; i < 60_000; i++) map.set((i * 7919) % 60_013, { k: i, v: `v${i}` });
  const sorted = [...map.values()].sort((a, b) => ((a.k * 31) % 997) - ((b.k * 31) % 997) || a.k - b.k);
  const back = JSON.parse(JSON.stringify(sorted.slice(0, 8000))) as { k: number }[];
  return (hash + Math.round(f) + back[back.length - 1].k) >>> 0;
}

const rounds = Number(Deno.args[0]);
let checksum = work();
const roundsMs: number[] = [];
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  checksum = (checksum + work()) >>> 0;
  roundsMs.push(performance.now() - start);
}
// Deno's count of CPUs follows the process's affinity (sched_getaffinity).
console.log(JSON.stringify({ roundsMs, checksum, allowedCpus: navigator.hardwareConcurrency }));
