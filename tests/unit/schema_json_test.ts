// The JSON Schema of a result file is written from its TypeScript types (runners/dev/schema_json.ts): the committed
// file is what the types say. Generation takes the TypeScript compiler about 3 s (no type check), on no network.
import { assertEquals } from "@std/assert";
import { SCHEMA_FILE, schemaJson } from "../../runners/dev/schema_json.ts";
import { ROOT } from "../_helpers.ts";

Deno.test("the committed JSON Schema is the one the result types generate", async () => {
  assertEquals(
    await Deno.readTextFile(`${ROOT}${SCHEMA_FILE}`),
    await schemaJson(),
    `${SCHEMA_FILE} is stale: run deno run -A runners/dev/schema_json.ts`,
  );
});
