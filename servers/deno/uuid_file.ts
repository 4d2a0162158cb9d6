// uuid-file on Deno: Deno.serve with Deno.writeTextFile, readTextFile and remove. With the argument `url-parse`,
// the query is read with node:url's url.parse + querystring.parse, as the article this workload comes from did.
// Same bytes as the node and bun servers.
import { parse as parseQueryString } from "node:querystring";
import { parse as parseUrl } from "node:url";

type Query = Record<"q1" | "q2" | "q3" | "q4", string | null>;
const dir = Deno.env.get("RTBENCH_DATA_DIR");
if (!dir) throw new Error("Cannot start server: RTBENCH_DATA_DIR is not set");
const headers = { "content-type": "application/json" };

// A missing key is null either way, as the other runtimes write it.
const queryOf: (url: string) => Query = Deno.args[0] === "url-parse"
  ? (url) => {
    const q = parseQueryString(parseUrl(url).query ?? "") as Record<string, string | undefined>;
    return { q1: q.q1 ?? null, q2: q.q2 ?? null, q3: q.q3 ?? null, q4: q.q4 ?? null };
  }
  : (url) => {
    const q = new URL(url).searchParams;
    return { q1: q.get("q1"), q2: q.get("q2"), q3: q.get("q3"), q4: q.get("q4") };
  };

async function roundTrip(request: Request): Promise<Response> {
  const record = queryOf(request.url);
  const file = `${dir}/${crypto.randomUUID()}.json`;
  await Deno.writeTextFile(file, JSON.stringify(record));
  const body = await Deno.readTextFile(file);
  await Deno.remove(file);
  return new Response(body, { headers });
}

function fetch(request: Request): Promise<Response> {
  return roundTrip(request).catch(() =>
    new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } })
  );
}

// rtbench --server-cpus runs `deno serve --parallel`, which serves the default export on every worker.
export default { fetch } satisfies Deno.ServeDefaultExport;
if (!Deno.env.get("RTBENCH_DENO_SERVE")) {
  const server = Deno.serve({
    hostname: Deno.env.get("HOST") ?? "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen() {},
  }, fetch);
  // On stop, finish the requests in flight so that none leaves its file behind.
  Deno.addSignalListener("SIGTERM", () => server.shutdown().then(() => Deno.exit(0)));
}
