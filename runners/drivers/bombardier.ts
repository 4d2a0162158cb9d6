/**
 * bombardier as a {@linkcode LoadGenerator}: Go and fasthttp, all client CPUs
 * (Go sizes its scheduler to the affinity mask), latency in microseconds.
 *
 * bombardier sends one fixed request, does not pipeline, and counts status
 * classes without reading bodies, so that is all it verifies under load.
 * Its latency histogram is not printable, but its template output can print
 * any quantile: rtbench asks for 1,001 of them and rebuilds the histogram from
 * those (rank error at most 0.1 percentile), so runs still merge.
 *
 * @module
 */

import * as hdr from "hdr-histogram-js";
import { makeTempFile, removeTemp, runCommand, runTool, toolJson, which } from "../platform/mod.ts";
import { HISTOGRAM_OPTIONS, percentilesOf } from "../samples/mod.ts";
import { closesConnections, requestsFor } from "./keep_alive.ts";
import type { LoadGenerator, LoadMeasurement, LoadRunOptions, LoadSettings, LoadTarget } from "./types.ts";
import { foldWarmup, type WindowFaults } from "./warmup.ts";

const QUANTILES = 1000;

// Go's text/template over bombardier's result; one JSON object out.
const TEMPLATE = `{{- with .Result -}}
{"timeTakenSeconds":{{ .TimeTaken.Seconds }},"bytesRead":{{ .BytesRead }},"req1xx":{{ .Req1XX }},"req2xx":{{ .Req2XX }},
"req3xx":{{ .Req3XX }},"req4xx":{{ .Req4XX }},"req5xx":{{ .Req5XX }},"others":{{ .Others }},
"errors":[{{ range $i, $e := .Errors }}{{ if ne $i 0 }},{{ end }}{"description":{{ printf "%q" .Error }},"count":{{ .Count }}}{{ end }}],
"quantiles":[{{ with .LatenciesStats (FloatsToArray ${
  Array.from({ length: QUANTILES + 1 }, (_, i) => (i / QUANTILES).toString()).join(" ")
}) }}{{ range $p, $v := .Percentiles }}{{ if ne $p 0.0 }},{{ end }}{{ $v }}{{ end }}{{ end }}]}
{{- end -}}`;

/** What rtbench's template makes bombardier print. */
export interface BombardierOutput {
  /** Length of the run. */
  readonly timeTakenSeconds: number;
  /** Bytes read. */
  readonly bytesRead: number;
  /** Responses by status class. */
  readonly req1xx: number;
  /** 2xx responses. */
  readonly req2xx: number;
  /** 3xx responses. */
  readonly req3xx: number;
  /** 4xx responses. */
  readonly req4xx: number;
  /** 5xx responses. */
  readonly req5xx: number;
  /** Other statuses. */
  readonly others: number;
  /** Errors by description. */
  readonly errors: readonly { readonly description: string; readonly count: number }[];
  /** Latency at quantiles 0, 0.001, ... 1 in microseconds (empty without responses). */
  readonly quantiles: readonly number[];
}

/** Rebuilds a histogram of `total` values from evenly spaced quantiles. */
export function histogramFromQuantiles(quantiles: readonly number[], total: number): hdr.Histogram {
  const h = hdr.build(HISTOGRAM_OPTIONS);
  const n = quantiles.length;
  for (let i = 0; i < n; i++) {
    const count = Math.floor(((i + 1) * total) / n) - Math.floor((i * total) / n);
    if (count > 0) {
      h.recordValueWithCount(Math.min(Math.max(1, quantiles[i]), HISTOGRAM_OPTIONS.highestTrackableValue), count);
    }
  }
  return h;
}

function responsesOf(o: BombardierOutput): number {
  return o.req1xx + o.req2xx + o.req3xx + o.req4xx + o.req5xx + o.others;
}

function windowFaults(o: BombardierOutput): WindowFaults {
  return { responses: responsesOf(o), non2xx: responsesOf(o) - o.req2xx, mismatches: 0, firstMismatch: null };
}

/** What bombardier printed for the window and its warm-up (or null) as a {@linkcode LoadMeasurement}: 2xx are valid. */
export function bombardierMeasurement(
  measured: BombardierOutput,
  warm: BombardierOutput | null,
  windowStartMs: number,
): LoadMeasurement {
  const errors = measured.errors.reduce((a, e) => a + e.count, 0);
  const timeouts = measured.errors.filter((e) => /timeout/i.test(e.description)).reduce((a, e) => a + e.count, 0);
  const histogram = histogramFromQuantiles(measured.quantiles, measured.req2xx);
  const seconds = measured.timeTakenSeconds;
  return {
    durationMs: Math.round(seconds * 1000),
    responses: responsesOf(measured),
    validResponses: measured.req2xx,
    requestsPerSecond: Math.round((measured.req2xx / seconds) * 100) / 100,
    bytesPerSecond: Math.round(measured.bytesRead / seconds),
    errors,
    timeouts,
    ...foldWarmup(windowFaults(measured), warm && windowFaults(warm)),
    latencyUs: percentilesOf(histogram),
    latencyHistogram: histogram.totalCount > 0 ? hdr.encodeIntoCompressedBase64(histogram) : null,
    latencyResolution: "us",
    ...(measured.quantiles.length > 0 ? { latencyQuantiles: measured.quantiles.length } : {}),
    clientCpuPercent: null,
    windowStartMs,
  };
}

async function runBombardier(
  target: LoadTarget,
  settings: LoadSettings,
  options: LoadRunOptions,
  seconds: number,
): Promise<BombardierOutput> {
  const template = await makeTempFile({ prefix: "rtbench-bombardier-", suffix: ".tmpl" });
  try {
    await Deno.writeTextFile(template, TEMPLATE);
    const spec = requestsFor(target.requests, settings)[0];
    const args = [
      "bombardier",
      // Its net/http clients drop each connection; fasthttp, its default, closes on the header (its README says so).
      ...(closesConnections(settings) ? ["--disableKeepAlives"] : []),
      `--connections=${settings.connections}`,
      `--duration=${seconds}s`,
      `--timeout=${settings.requestTimeoutSec}s`,
      `--method=${spec.method ?? "GET"}`,
      "--latencies",
      "--print=result",
      `--format=path:${template}`,
      ...Object.entries(spec.headers ?? {}).map(([k, v]) => `--header=${k}: ${v}`),
      ...(spec.body === undefined ? [] : [`--body=${spec.body}`]),
      new URL(spec.path, target.baseUrl).href,
    ];
    const budgetMs = (seconds + settings.requestTimeoutSec + 30) * 1000;
    return toolJson<BombardierOutput>(
      "bombardier",
      await runTool("bombardier", args, {
        cpus: options.cpus,
        timeoutMs: budgetMs,
        signal: options.signal,
        onSpawn: options.onSpawn,
        keepBytes: 1 << 20,
      }),
    );
  } finally {
    await removeTemp(template);
  }
}

let cachedVersion: Promise<string> | undefined;

/**
 * The bombardier load generator, used when `bombardier` is on `PATH`
 * (`go install github.com/codesenberg/bombardier@latest`).
 *
 * @example Is bombardier installed?
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { bombardierGenerator } from "@rtbench/rtbench/runners";
 *
 * assertEquals(typeof await bombardierGenerator.available(), "boolean");
 * ```
 */
export const bombardierGenerator: LoadGenerator = {
  name: "bombardier",
  statusOnly: true,
  closesConnections: true,
  verifies: "status class of every response (bombardier counts 1xx to 5xx and reads no bodies), warm-up and " +
    "measurement",
  available(): Promise<boolean> {
    return Promise.resolve(which("bombardier") !== null);
  },
  version(): Promise<string> {
    cachedVersion ??= runCommand(["bombardier", "--version"], { timeoutMs: 5000 }).then((out) =>
      // "bombardier version v1.2.6 linux/amd64" ("unspecified" when built without a version stamp)
      /bombardier version (\S+)/.exec(out.stdout + out.stderr)?.[1] ?? "unknown"
    );
    return cachedVersion;
  },
  unsupported(target: LoadTarget, settings: LoadSettings): string | null {
    if (settings.pipelining > 1) return "bombardier does not pipeline requests";
    if (settings.durationSec < 1) return "bombardier measures windows of 1 s or more (--duration)";
    if (target.requests.length > 1) {
      return `bombardier sends one fixed request; this workload cycles through ${target.requests.length}`;
    }
    return null;
  },
  async run(target: LoadTarget, settings: LoadSettings, options: LoadRunOptions): Promise<LoadMeasurement> {
    const reason = this.unsupported!(target, settings);
    if (reason) throw new Error(reason);
    let warm: BombardierOutput | null = null;
    // bombardier runs for 1 s at least: a shorter warm-up is a longer one, which only warms more.
    if (settings.warmupSec > 0) warm = await runBombardier(target, settings, options, Math.max(1, settings.warmupSec));
    const windowStartMs = Date.now();
    const measured = await runBombardier(target, settings, options, settings.durationSec);
    return bombardierMeasurement(measured, warm, windowStartMs);
  },
};
