/**
 * Number formatting shared by the exporters: units in every cell. It lives in the stats layer, where the kinds' report
 * views (`runners/kinds/`) reach it too.
 *
 * @module
 */

export {
  alignTable,
  approximateLatencyNote,
  formatBytesPerSecond,
  formatCount,
  formatFigure,
  formatLatency,
  formatUs,
} from "../stats/mod.ts";
