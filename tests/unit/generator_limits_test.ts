// docs/method.md "Other load generators": a generator forced on settings it cannot take is refused before it runs,
// with the reason naming the flag, rather than failing its record with the tool's own words (or none).
import { assertThrows } from "@std/assert";
import { autocannonGenerator } from "../../runners/drivers/autocannon.ts";
import { bombardierGenerator } from "../../runners/drivers/bombardier.ts";
import { pickLoadGenerator } from "../../runners/drivers/generators.ts";
import type { LoadGenerator, LoadSettings, LoadTarget } from "../../runners/drivers/types.ts";

const TARGET: LoadTarget = {
  baseUrl: "http://127.0.0.1:1",
  requests: [{ path: "/", expect: { status: 200, contentType: "application/json", body: "{}" } }],
};
const SETTINGS: LoadSettings = { durationSec: 1, warmupSec: 0, connections: 1, pipelining: 1, requestTimeoutSec: 1 };

function refusal(generator: LoadGenerator, settings: Partial<LoadSettings>): string {
  const choice = { requested: generator.name, candidates: [generator] };
  return assertThrows(() => pickLoadGenerator(choice, TARGET, { ...SETTINGS, ...settings }), TypeError).message;
}

Deno.test("a generator refuses the settings it cannot take, naming the flag", () => {
  const cases: [LoadGenerator, Partial<LoadSettings>, string][] = [
    [autocannonGenerator, { requestTimeoutSec: 0.5 }, "autocannon takes a request timeout of 1 s or more (--timeout)"],
    [bombardierGenerator, { durationSec: 0.5 }, "bombardier measures windows of 1 s or more (--duration)"],
    [bombardierGenerator, { pipelining: 4 }, "bombardier does not pipeline requests"],
  ];
  for (const [generator, settings, reason] of cases) {
    const message = refusal(generator, settings);
    if (!message.endsWith(`${generator.name} (${reason})`)) throw new Error(`${generator.name}: ${message}`);
  }
  // Settings it can take pass.
  pickLoadGenerator({ requested: "autocannon", candidates: [autocannonGenerator] }, TARGET, SETTINGS);
});
