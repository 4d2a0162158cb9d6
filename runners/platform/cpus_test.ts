import { assertEquals, assertThrows } from "@std/assert";
import { parseCpuList } from "../base/mod.ts";
import { splitCpus } from "./cpus.ts";

Deno.test("CPU lists expand ranges", () => {
  assertEquals(parseCpuList("0-2,5,7-8"), [0, 1, 2, 5, 7, 8]);
  assertThrows(() => parseCpuList("a-b"), RangeError);
});

// docs/method.md "Measurement": "the server gets the first half, the load generator the rest (on 2 cores: server `0`,
// client `1`)"; the `not-pinned` warning without two CPUs: tests/e2e/lifecycle_test.ts.
Deno.test("two CPUs: server 0, client 1; more are halved; one or no taskset means no pinning", () => {
  assertEquals(splitCpus("0-1", true), { server: "0", client: "1" });
  assertEquals(splitCpus("0-4", true), { server: "0,1,2", client: "3,4" });
  assertEquals(splitCpus("3", true), { server: null, client: null });
  assertEquals(splitCpus("0-1", false), { server: null, client: null });
  assertEquals(splitCpus(null, true), { server: null, client: null });
});

Deno.test("--server-cpus n: the first n CPUs serve, the client gets the rest or, with none left, shares them", () => {
  assertEquals(splitCpus("0-3", true, 3), { server: "0,1,2", client: "3" });
  assertEquals(splitCpus("0-1", true, 2), { server: "0,1", client: "0,1" });
  assertEquals(splitCpus("0-3", true, "all"), { server: "0,1,2,3", client: "0,1,2,3" });
  assertEquals(splitCpus("0-1", true, 1), { server: "0", client: "1" });
  assertThrows(() => splitCpus("0-1", true, 3), RangeError, "3: only 2 CPUs may be used here (0-1)");
});
