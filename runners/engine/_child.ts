// rtbench's load engine, one process: reads a job (JSON) on stdin — HTTP or WebSocket —, runs it to the end of its
// measured window and prints one JSON line with what it counted. It runs on Bun (raw TCP through Bun.connect) and,
// where Bun cannot be had, on Deno; the transport is the only difference.

import { driveHttp, type EngineJob } from "./_http_load.ts";
import { driveWebSocket, type EngineWsJob } from "./_ws_load.ts";
import { readStdin, writeStdoutAndExit } from "./_transport.ts";

if (import.meta.main) {
  const job = JSON.parse(await readStdin()) as EngineJob | EngineWsJob;
  const counts = job.kind === "websocket" ? await driveWebSocket(job) : await driveHttp(job);
  await writeStdoutAndExit(JSON.stringify(counts) + "\n");
}
