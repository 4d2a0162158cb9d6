// ws on Node.js: the ws package. Echoes every message unchanged, text as text, binary as binary.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";

const server = createServer((_req, res) => {
  res.writeHead(426, { "content-type": "text/plain" });
  res.end("Upgrade Required");
});
const wss = new WebSocketServer({ server });
wss.on("connection", (socket) => {
  socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary }));
});
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
