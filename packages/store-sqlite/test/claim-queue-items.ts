// Child process for the two-process claim test: opens the database file, says "ready", waits for
// "go" on stdin, then claims items of one queue for one member until none is left and prints the
// claimed ids as one JSON line. Run with `node --import tsx` from the repository root.
import { createInterface } from "node:readline";
import { openStore } from "../src/open-store.js";

const [file, queueId, memberId] = process.argv.slice(2);
if (file === undefined || queueId === undefined || memberId === undefined) {
  throw new Error("usage: claim-queue-items <db> <queueId> <memberId>");
}
const store = openStore({ file });
process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const claimed: string[] = [];
  for (;;) {
    // A long lock: nothing this process claimed may be handed to the other one.
    const item = store.annotationQueues.claim(queueId, memberId, Date.now(), 600_000);
    if (item === null) break;
    // A claim returns the member's own unexpired lock first: completing the item moves on to the next.
    store.annotationQueues.updateItem(queueId, item.id, { status: "COMPLETED", completedByKeyId: memberId });
    claimed.push(item.id);
  }
  process.stdout.write(`${JSON.stringify(claimed)}\n`);
  break;
}
lines.close();
store.close();
