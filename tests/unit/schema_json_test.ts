// The JSON Schema of a result file is written from its TypeScript types, and its validator from the schema
// (runners/dev/schema_json.ts): the committed files are what the types say. Generation takes the TypeScript compiler
// about 3 s (no type check), on no network.
import { assertEquals } from "@std/assert";
import { SCHEMA_FILE, schemaJson, VALIDATOR_FILE, validatorJs } from "../../runners/dev/schema_json.ts";
import { ROOT } from "../_helpers.ts";

Deno.test("the committed JSON Schema and validator are the ones the result types generate", async () => {
  const schema = await schemaJson();
  const stale = "is stale: run deno run -A runners/dev/schema_json.ts";
  assertEquals(await Deno.readTextFile(`${ROOT}${SCHEMA_FILE}`), schema, `${SCHEMA_FILE} ${stale}`);
  // Compared as text, not with assertEquals: its diff of 600 kB on one line would bury the message.
  const validator = await Deno.readTextFile(`${ROOT}${VALIDATOR_FILE}`);
  assertEquals(validator === validatorJs(schema), true, `${VALIDATOR_FILE} ${stale}`);
});
