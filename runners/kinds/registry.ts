// Every workload kind rtbench runs, one line each: the one list of kinds. Workload validation, the run loop's dispatch
// and the reports' views derive from it, and what the layers below see of it (`runners/schema/kinds.ts`: the kinds'
// names and what their workloads need; the JSON Schema's enum) is written from it by `runners/dev/kinds.ts`, which keeps the
// order the schema already lists and puts a new kind last.

export { httpKind } from "./http.ts";
export { websocketKind } from "./websocket.ts";
export { processKind } from "./process.ts";
export { microKind } from "./micro.ts";
