// http-json on Express 5, the same file on every runtime: res.json().
import express from "express";

const app = express();
// Express's production guide: no X-Powered-By header (no other server here sends one).
app.disable("x-powered-by");
app.get("/", (_req, res) => {
  res.json({ message: "Hello, World!" });
});
app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
