// Every workload kind rtbench runs, one line each, in the order reports list them: the one list of kinds. Workload
// validation, the run loop's dispatch and the reports' views derive from it, and the schema's list of kind names
// (`runners/schema/kinds.ts`, and the JSON Schema's enum) is written from it by `deno task kinds`.

export { httpKind } from "./http.ts";
export { websocketKind } from "./websocket.ts";
export { processKind } from "./process.ts";
export { microKind } from "./micro.ts";
