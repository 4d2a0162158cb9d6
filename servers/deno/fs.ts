// fs workload on Deno: write FS_FILES files of FS_FILE_BYTES bytes into FS_DIR
// concurrently with Deno.writeFile, then read them all back concurrently with
// Deno.readFile. Prints one JSON line.
const dir = Deno.env.get("FS_DIR")!;
const files = Number(Deno.env.get("FS_FILES"));
const size = Number(Deno.env.get("FS_FILE_BYTES"));
const encoder = new TextEncoder();

// File i holds "file <i>\n" repeated and cut to the size; the harness checks the same.
const paths = Array.from({ length: files }, (_, i) => `${dir}/f${i}.txt`);
const contents = paths.map((_, i) => {
  const line = `file ${i}\n`;
  return encoder.encode(line.repeat(Math.ceil(size / line.length)).slice(0, size));
});

const t0 = performance.now();
await Promise.all(paths.map((path, i) => Deno.writeFile(path, contents[i])));
const t1 = performance.now();
const read = await Promise.all(paths.map((path) => Deno.readFile(path)));
const t2 = performance.now();

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, j) => byte === b[j]);
let mismatches = 0;
for (let i = 0; i < files; i++) if (!same(read[i], contents[i])) mismatches++;
console.log(JSON.stringify({ files, bytes: files * size, writeMs: t1 - t0, readMs: t2 - t1, mismatches }));
