// http-json on Node.js: node:http. Same bytes as the deno and bun servers.
import { createServer } from "node:http";

const body = Buffer.from(JSON.stringify({ message: "Hello, World!" }));
const headers = { "content-type": "application/json", "content-length": body.length };

createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
