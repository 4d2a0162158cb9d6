// fs workload on Node.js, and the `node-compat` variant on every runtime:
// write FS_FILES files of FS_FILE_BYTES bytes into FS_DIR concurrently with
// node:fs/promises, then read them all back concurrently. Prints one JSON line.
import { readFile, writeFile } from "node:fs/promises";
import process from "node:process";

const dir = process.env.FS_DIR;
const files = Number(process.env.FS_FILES);
const size = Number(process.env.FS_FILE_BYTES);
const encoder = new TextEncoder();

// File i holds "file <i>\n" repeated and cut to the size; the harness checks the same.
const paths = Array.from({ length: files }, (_, i) => `${dir}/f${i}.txt`);
const contents = paths.map((_, i) => {
  const line = `file ${i}\n`;
  return encoder.encode(line.repeat(Math.ceil(size / line.length)).slice(0, size));
});

const t0 = performance.now();
await Promise.all(paths.map((path, i) => writeFile(path, contents[i])));
const t1 = performance.now();
const read = await Promise.all(paths.map((path) => readFile(path)));
const t2 = performance.now();

let mismatches = 0;
for (let i = 0; i < files; i++) if (Buffer.compare(read[i], contents[i]) !== 0) mismatches++;
console.log(JSON.stringify({ files, bytes: files * size, writeMs: t1 - t0, readMs: t2 - t1, mismatches }));
