/**
 * The suite layer's surface: `run()` and its steps (the request and its validation, the settings and
 * profiles, the schedule, resuming). Files named `_x.ts` are private to this folder.
 *
 * @module
 */

export * from "./progress.ts";
export * from "./request.ts";
export * from "./resume.ts";
export * from "./run.ts";
export * from "./schedule.ts";
export * from "./settings.ts";
