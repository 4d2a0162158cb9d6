// Round-trip time from a load machine to the server machine: TCP connects to the server machine's ssh port, timed
// here. A connect completes when the SYN-ACK arrives, one round trip after the SYN left. Arguments: host port count.
// Prints the connect times in microseconds as one JSON array. Runs on Bun, Deno or Node (node:net).
import { connect } from "node:net";

const [host, port, count] = process.argv.slice(-3);
const times = [];
for (let i = 0; i < Number(count); i++) {
  const start = performance.now();
  await new Promise((resolve, reject) => {
    const socket = connect(Number(port), host, () => {
      socket.destroy();
      resolve();
    });
    socket.on("error", reject);
  });
  times.push(Math.round((performance.now() - start) * 1000));
}
console.log(JSON.stringify(times));
