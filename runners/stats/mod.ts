/**
 * The statistics layer's surface: summaries and intervals, Welch's and the paired tests, Holm's correction, run
 * plans, saturation, rounding, figures written with their units, and what a figure's name says (its unit and which
 * way is better): what reading results needs. What measuring makes of raw samples is in `samples/`. Files named
 * `_x.ts` are private to this folder.
 *
 * @module
 */

export * from "./adaptive.ts";
export * from "./duet.ts";
export * from "./figures.ts";
export * from "./format.ts";
export * from "./holm.ts";
export * from "./machine.ts";
export * from "./paired.ts";
export * from "./random.ts";
export * from "./round.ts";
export * from "./saturation.ts";
export * from "./summary.ts";
export * from "./sweep.ts";
export * from "./welch.ts";
