// Node.js's release schedule read on fixed days from a fixed schedule (the shape node-releases carries): which line is
// Active LTS on a day, and where a line stands. Nothing here reads today's date or the pinned package's data.
import { assertEquals } from "@std/assert";
import { activeLtsLine, nodeSupport } from "./node_schedule.ts";
import { SCHEDULE } from "../tests/fixtures/node_schedule.ts";

Deno.test("the Active LTS line is the one between its LTS and maintenance dates, day by day", () => {
  assertEquals(activeLtsLine("2024-10-28", SCHEDULE), "20");
  assertEquals(activeLtsLine("2024-10-29", SCHEDULE), "22");
  assertEquals(activeLtsLine("2026-10-27", SCHEDULE), "24");
  // Node 24 entered maintenance on 2026-10-20, eight days before 26 became LTS: the newest LTS line fills the gap.
  assertEquals(activeLtsLine("2026-10-21", SCHEDULE), "24");
  assertEquals(activeLtsLine("2026-10-28", SCHEDULE), "26");
  assertEquals(activeLtsLine("2026-11-28", SCHEDULE), "26");
  // A line the schedule gives no maintenance date stays Active LTS until its end.
  assertEquals(activeLtsLine("2028-06-01", SCHEDULE), "27");
  // Odd lines never are; a day before any LTS line, none is.
  assertEquals(activeLtsLine("2025-05-01", SCHEDULE), "22");
  assertEquals(activeLtsLine("2023-01-01", SCHEDULE), null);
});

Deno.test("a line's support on a day: current, Active LTS, maintenance, end of life, each with the day it began", () => {
  assertEquals(nodeSupport("26", "2026-06-01", SCHEDULE), {
    status: "current",
    since: "2026-05-05",
    lineReleased: "2026-05-05",
  });
  assertEquals(nodeSupport("26", "2026-11-28", SCHEDULE), {
    status: "active-lts",
    since: "2026-10-28",
    lineReleased: "2026-05-05",
  });
  assertEquals(nodeSupport("22", "2026-11-28", SCHEDULE), {
    status: "maintenance",
    since: "2025-10-21",
    lineReleased: "2024-04-24",
  });
  assertEquals(nodeSupport("20", "2026-11-28", SCHEDULE), {
    status: "end-of-life",
    since: "2026-04-30",
    lineReleased: "2023-04-18",
  });
  // The day of the end is already past it; an odd line goes from current to maintenance.
  assertEquals(nodeSupport("20", "2026-04-30", SCHEDULE).status, "end-of-life");
  assertEquals(nodeSupport("20", "2026-04-29", SCHEDULE).status, "maintenance");
  assertEquals(nodeSupport("25", "2026-05-01", SCHEDULE).status, "maintenance");
  assertEquals(nodeSupport("25", "2026-06-01", SCHEDULE).status, "end-of-life");
});

Deno.test("a line the schedule does not list, or before its first release, is unknown", () => {
  assertEquals(nodeSupport("14", "2026-11-28", SCHEDULE), { status: "unknown", since: null, lineReleased: null });
  assertEquals(nodeSupport("27", "2026-11-28", SCHEDULE), {
    status: "unknown",
    since: null,
    lineReleased: "2027-04-22",
  });
});
