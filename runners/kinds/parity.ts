/**
 * Parity across runtimes, before any load: every runtime's server answers the
 * same requests, and what must be equal between runtimes is compared.
 *
 * Per request: status and content-type (as the expectation compares it) always; content-length and the body
 * when the request's body is fixed (no `bodyPattern`); when it varies
 * (`bodyPattern`), whether it matches the pattern. A runtime whose exchange
 * already fails the workload's own expectation is left out of the vote (its
 * record is invalid on its own account).
 *
 * Which one is odd: the runtimes that agree form groups per compared value.
 * When one group holds a strict majority, every runtime outside it is marked
 * `invalid`. Without a strict majority (two runtimes that disagree, or three
 * that all differ) nothing says which is right, so every runtime that
 * disagrees is marked `invalid`: comparing them would not be fair.
 *
 * @module
 */

import { type Check, comparedMediaType, type HttpExchange, requestLabel } from "../../workloads/mod.ts";

/** What one runtime answered, request by request. */
export interface ParityObservation {
  /** The runtime as requested (`bun@1.2.0`), the record's key. */
  readonly runtime: string;
  /** Exchanges in request order. */
  readonly exchanges: readonly HttpExchange[];
}

/** The parity outcome for one runtime. */
export interface ParityVerdict {
  /** One check per compared field and request. */
  readonly checks: Check[];
  /** Why the runtime is invalid, or null. */
  readonly invalid: string | null;
}

/**
 * The content type as the expectation compares it (`text/plain; charset=UTF-8` and `text/plain;charset=utf-8` are one),
 * its parameters left out where the expectation names none: a runtime's own default charset is no difference then.
 */
function contentTypeOf(x: HttpExchange): string | null {
  const value = x.headers["content-type"];
  return value === undefined ? null : comparedMediaType(value, x.request.expect.contentType);
}

function compared(x: HttpExchange): [string, string | number | boolean | null][] {
  const e = x.request.expect;
  const fields: [string, string | number | boolean | null][] = [
    ["status", x.status],
    ["content-type", contentTypeOf(x)],
  ];
  if (e.bodyPattern === undefined) {
    fields.push(["content-length", x.headers["content-length"] ?? null], ["body", x.body]);
  } else {
    fields.push(["body pattern", new RegExp(`^(?:${e.bodyPattern})$`).test(x.body)]);
  }
  return fields;
}

function clip(value: string | number | boolean | null): string | number | boolean | null {
  return typeof value === "string" ? value.slice(0, 500) : value;
}

/** Requests whose every compared field is listed in the checks; past them, only differences are. */
const SHOWN_REQUESTS = 3;

function show(value: string | number | boolean | null): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

/**
 * Compares the observations of several runtimes and returns a verdict per
 * runtime; `passedOwnChecks` says which runtimes may vote.
 *
 * @example Three runtimes, one sends a longer body
 * ```ts
 * import { judgeParity } from "./parity.ts";
 * const request = { path: "/", expect: { status: 200, contentType: "application/json" } };
 * const seen = (body: string) => ({
 *   request, status: 200, body, bodyBytes: body.length,
 *   headers: { "content-type": "application/json", "content-length": String(body.length) },
 * });
 * const verdicts = judgeParity([
 *   { runtime: "deno", exchanges: [seen("{}")] },
 *   { runtime: "node", exchanges: [seen("{ }")] },
 *   { runtime: "bun", exchanges: [seen("{}")] },
 * ]);
 * console.log(verdicts.get("node")?.invalid !== null, verdicts.get("deno")?.invalid); // true null
 * ```
 */
export function judgeParity(
  observations: readonly ParityObservation[],
  passedOwnChecks: (runtime: string) => boolean = () => true,
): Map<string, ParityVerdict> {
  const voters = observations.filter((o) => passedOwnChecks(o.runtime));
  const verdicts = new Map<string, ParityVerdict>(voters.map((o) => [o.runtime, { checks: [], invalid: null }]));
  if (voters.length < 2) return verdicts;
  const requests = Math.min(...voters.map((o) => o.exchanges.length));
  const reasons = new Map<string, string[]>();
  for (let i = 0; i < requests; i++) {
    const rows = voters.map((o) => ({ runtime: o.runtime, fields: compared(o.exchanges[i]) }));
    const request = voters[0].exchanges[i].request;
    for (let f = 0; f < rows[0].fields.length; f++) {
      const name = `parity ${requestLabel(request)} ${rows[0].fields[f][0]}`;
      const groups = new Map<string, string[]>();
      for (const row of rows) {
        const key = JSON.stringify(row.fields[f][1]);
        groups.set(key, [...(groups.get(key) ?? []), row.runtime]);
      }
      const [majorityKey, majority] = [...groups.entries()].sort((a, b) => b[1].length - a[1].length)[0];
      const strict = majority.length * 2 > rows.length;
      for (const row of rows) {
        const value = row.fields[f][1];
        const agrees = groups.size === 1 || (strict && JSON.stringify(value) === majorityKey);
        // Past the first few requests only disagreements are listed; one line below stands for the rest.
        if (agrees && i >= SHOWN_REQUESTS) continue;
        verdicts.get(row.runtime)!.checks.push({
          name,
          passed: agrees,
          expected: strict ? clip(JSON.parse(majorityKey)) : null,
          actual: clip(value),
        });
        if (agrees) continue;
        const others = rows.filter((r) => r.runtime !== row.runtime)
          .map((r) => `${r.runtime} ${show(r.fields[f][1])}`).join(", ");
        const why = strict
          ? `${name}: ${show(value)} where ${majority.join(" and ")} send ${show(JSON.parse(majorityKey))}`
          : `${name}: ${show(value)} while ${others}, and no majority says which is right`;
        reasons.set(row.runtime, [...(reasons.get(row.runtime) ?? []), why]);
      }
    }
  }
  if (requests > SHOWN_REQUESTS) {
    for (const [runtime, verdict] of verdicts) {
      (verdict.checks as Check[]).push({
        name: `parity: the other ${requests - SHOWN_REQUESTS} distinct requests`,
        passed: !reasons.has(runtime),
        expected: "the same as the other runtimes",
        actual: reasons.has(runtime) ? "different (see above)" : "the same",
      });
    }
  }
  for (const [runtime, why] of reasons) {
    verdicts.set(runtime, { checks: verdicts.get(runtime)!.checks, invalid: why.join("; ") });
  }
  return verdicts;
}
