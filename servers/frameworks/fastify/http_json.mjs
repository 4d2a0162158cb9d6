// http-json on Fastify 5, the same file on every runtime: the handler returns the object, Fastify serializes it.
import Fastify from "fastify";

const app = Fastify();
app.get("/", () => ({ message: "Hello, World!" }));
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? "127.0.0.1" });
