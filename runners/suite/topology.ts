/**
 * Opening a multi-host suite: every machine connected and fingerprinted, and
 * the round trip from each load machine to the server machine measured (20
 * TCP connects to its ssh port, timed on the load machine), for the result's
 * `topology`.
 *
 * @module
 */

import { engineCommand, hostsOf, roundTrip, type Topology } from "../drivers/mod.ts";
import type { Topology as TopologyInfo } from "../schema/mod.ts";

/**
 * Connects every host of `topology` (a host that cannot be reached ends the
 * suite before anything runs) and returns what the result records of them.
 *
 * @example
 * ```ts ignore
 * import { topologyOf } from "../drivers/mod.ts";
 * import { openTopology } from "./topology.ts";
 * const info = await openTopology(topologyOf({ server: "bench@198.18.0.2" }));
 * console.log(info.hosts[0].cpuModel);
 * ```
 */
export async function openTopology(topology: Topology, signal?: AbortSignal): Promise<TopologyInfo> {
  const hosts = hostsOf(topology);
  await Promise.all(hosts.map((h) => h.connect(signal)));
  const server = topology.server;
  const argv = server && topology.clients.length > 0 ? await engineCommand(signal) : undefined;
  const roundTrips = [];
  // Timed before any load, one client at a time, so that no connect waits behind another's.
  for (const client of server ? topology.clients : []) {
    roundTrips.push(await roundTrip(client, server!, argv!, 20, signal));
  }
  return { hosts: hosts.map((h) => h.info), roundTrips };
}
