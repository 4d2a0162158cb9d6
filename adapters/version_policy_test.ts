// The version policy on fixed days, with a fixed Node.js schedule and fixed npm releases: which version the default
// takes, which one it takes offline, a record's release and support, and the warnings a comparison carries. Nothing
// here reads today's date, the pinned schedule or the registry.
import { assertEquals, assertMatch, assertThrows } from "@std/assert";
import type { RuntimeInfo, RuntimeRelease } from "../runners/schema/mod.ts";
import { SCHEDULE } from "../tests/fixtures/node_schedule.ts";
import { activeLtsLine, nodeSupport } from "./node_schedule.ts";
import { releaseLine } from "./releases.ts";
import type { RuntimeAdapter } from "./types.ts";
import { cachedChoice, dayOf, defaultChoice, releaseOf, releaseWarnings } from "./version_policy.ts";

/** Node.js as its adapter is, on the fixed schedule. */
const node: Pick<RuntimeAdapter, "name" | "deployLine" | "support"> = {
  name: "node",
  deployLine: (day) => activeLtsLine(day, SCHEDULE),
  support: (version, day) => {
    const line = releaseLine("node", version);
    return { line, ...nodeSupport(line, day, SCHEDULE), source: "fixture schedule" };
  },
};
const bun = { name: "bun" };
const NODE_VERSIONS = ["20.20.2", "22.21.1", "24.11.1", "25.2.0", "26.9.0", "26.10.0", "27.0.0-rc.1"];

Deno.test("by default Node.js is the newest release of the line that is Active LTS that day", () => {
  assertEquals(defaultChoice(node, NODE_VERSIONS, "2026-11-28"), { version: "26.10.0", selection: "active-lts" });
  assertEquals(defaultChoice(node, NODE_VERSIONS, "2026-10-27"), { version: "24.11.1", selection: "active-lts" });
  assertEquals(defaultChoice(node, NODE_VERSIONS, "2025-01-15"), { version: "22.21.1", selection: "active-lts" });
  assertThrows(
    () => defaultChoice(node, ["20.20.2"], "2026-11-28"),
    Error,
    "npm lists no stable release of its line 26",
  );
});

Deno.test("by default Deno and Bun are the newest stable release: no canary, no release candidate", () => {
  const versions = ["1.2.0", "1.3.4", "1.4.5", "1.5.0-canary.20261201", "1.10.0-rc.1"];
  assertEquals(defaultChoice(bun, versions, "2026-11-28"), { version: "1.4.5", selection: "latest" });
});

Deno.test("offline, the newest cached release of the line the default would take, else the newest cached", () => {
  assertEquals(cachedChoice(node, ["26.9.0", "24.11.1", "20.20.2"], "2026-11-28"), "26.9.0");
  assertEquals(cachedChoice(node, ["24.11.1", "20.20.2"], "2026-11-28"), "24.11.1");
  assertEquals(cachedChoice(node, [], "2026-11-28"), undefined);
  assertEquals(cachedChoice(bun, ["1.2.0", "1.4.5", "1.3.4"], "2026-11-28"), "1.4.5");
});

Deno.test("a Node.js record's release comes from the schedule on the day it was measured", () => {
  assertEquals(releaseOf(node, "20.20.2", "2026-11-28", null), {
    line: "20",
    status: "end-of-life",
    since: "2026-04-30",
    lineReleased: "2023-04-18",
    asOf: "2026-11-28",
    source: "fixture schedule",
  });
  assertEquals(releaseOf(node, "26.10.0", "2026-11-28", null).status, "active-lts");
  assertEquals(releaseOf(node, "24.11.1", "2026-11-28", null).status, "maintenance");
  assertEquals(releaseOf(node, "24.11.1", "2026-01-02", null).status, "active-lts");
});

Deno.test("a Deno or Bun record's line is latest while no newer line is on npm, superseded after", () => {
  const npm = {
    versions: ["1.2.0", "1.2.23", "1.4.4", "1.4.5", "1.5.0-canary.1"],
    published: { "1.2.0": "2025-01-22T21:34:53Z", "1.2.23": "2025-09-01T00:00:00Z", "1.4.4": "2026-08-20T14:47:09Z" },
  };
  assertEquals(releaseOf(bun, "1.4.5", "2026-11-28", npm), {
    line: "1.4",
    status: "latest",
    since: null,
    lineReleased: "2026-08-20",
    asOf: "2026-11-28",
    source: "npm registry",
  });
  assertEquals(releaseOf(bun, "1.2.0", "2026-11-28", npm).status, "superseded");
  assertEquals(releaseOf(bun, "1.2.0", "2026-11-28", npm).lineReleased, "2025-01-22");
  assertEquals(releaseOf(bun, "1.2.0", "2026-11-28", null).status, "unknown");
});

Deno.test("the day is read in UTC", () => {
  assertEquals(dayOf(new Date("2026-04-29T23:30:00-02:00")), "2026-04-30");
});

/** A record's runtime as a resolved one would give it. */
function runtime(
  requested: string,
  version: string,
  selection: RuntimeInfo["selection"],
  release: Partial<RuntimeRelease>,
): RuntimeInfo {
  const name = requested.split("@")[0];
  return {
    name,
    requested,
    version,
    engine: null,
    engineVersion: null,
    binary: null,
    source: null,
    selection,
    release: {
      line: "",
      status: "latest",
      since: null,
      lineReleased: null,
      asOf: "2026-11-28",
      source: "test",
      ...release,
    },
  };
}

const NODE_20 = { line: "20", status: "end-of-life", since: "2026-04-30", lineReleased: "2023-04-18" } as const;
const NODE_26 = { line: "26", status: "active-lts", since: "2026-10-28", lineReleased: "2026-05-05" } as const;
const DENO_29 = { line: "2.9", lineReleased: "2026-06-25" };
const BUN_14 = { line: "1.4", lineReleased: "2026-08-20" };

Deno.test("a comparison with Node.js 20 in late 2026 warns: end of life, and years older than the others", () => {
  const warnings = releaseWarnings([
    runtime("deno", "2.9.6", "latest", DENO_29),
    runtime("node@system", "20.20.2", "system", NODE_20),
    runtime("bun", "1.4.5", "latest", BUN_14),
  ]);
  assertEquals(warnings.map((w) => w.code), ["end-of-life", "release-age"]);
  assertMatch(warnings[0].message, /^node 20\.20\.2 is past its end of life \(line 20, end of life since 2026-04-30/);
  assertMatch(warnings[1].message, /^node 20\.20\.2's line 20 came out 2023-04-18/);
  assertMatch(warnings[1].message, /deno 2\.9\.6 \(line 2\.9, out 2026-06-25, 3\.2 years later\)/);
  assertMatch(warnings[1].message, /bun 1\.4\.5 \(line 1\.4, out 2026-08-20, 3\.3 years later\)/);
});

Deno.test("the default comparison of late 2026 carries no warning", () => {
  const warnings = releaseWarnings([
    runtime("deno", "2.9.6", "latest", DENO_29),
    runtime("node", "26.10.0", "active-lts", NODE_26),
    runtime("bun", "1.4.5", "latest", BUN_14),
  ]);
  assertEquals(warnings, []);
});

Deno.test("versions the user named are compared without an age warning; an end-of-life one still warns", () => {
  // A sweep, or an article's versions: the ages are the point.
  const named = releaseWarnings([
    runtime("node@20", "20.20.2", "requested", NODE_20),
    runtime("bun@1.4.5", "1.4.5", "requested", BUN_14),
  ]);
  assertEquals(named.map((w) => w.code), ["end-of-life"]);
  // The two arms of an A/A run are one release: one warning.
  const arms = ["A", "B"].map((arm) => ({
    ...runtime(`node@system#${arm}`, "20.20.2", "system", NODE_20),
    name: "node",
  }));
  assertEquals(releaseWarnings(arms).map((w) => w.code), ["end-of-life"]);
  // Two lines 1.9 years apart are of one age.
  const close = releaseWarnings([
    runtime("node", "24.11.1", "cached", { line: "24", status: "maintenance", lineReleased: "2025-05-06" }),
    runtime("bun", "1.9.0", "latest", { line: "1.9", lineReleased: "2027-03-30" }),
  ]);
  assertEquals(close, []);
});
