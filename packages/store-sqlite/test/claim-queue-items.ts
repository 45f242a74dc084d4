// Child process for the two-process claim test: opens the database file, says "ready", waits for
// "go" on stdin, claims one item and says "first", waits for "more", then claims items of one
// queue for one member until none is left and prints the claimed ids as one JSON line. The
// "first"/"more" barrier makes both processes hold a claim before either drains the queue (a
// process started late could otherwise find it empty). Run with `node --import tsx` from the
// repository root.
import { createInterface } from "node:readline";
import { openStore } from "../src/open-store.js";

const [file, queueId, memberId] = process.argv.slice(2);
if (file === undefined || queueId === undefined || memberId === undefined) {
  throw new Error("usage: claim-queue-items <db> <queueId> <memberId>");
}
const store = openStore({ file });
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function waitFor(word: string): Promise<void> {
  for (;;) {
    const line = await lines.next();
    if (line.done === true) throw new Error(`stdin closed before "${word}"`);
    if (line.value.trim() === word) return;
  }
}

/** Claims and completes one item; false when none is left. */
function claimOne(claimed: string[]): boolean {
  // A long lock: nothing this process claimed may be handed to the other one.
  const item = store.annotationQueues.claim(queueId as string, memberId as string, Date.now(), 600_000);
  if (item === null) return false;
  // A claim returns the member's own unexpired lock first: completing the item moves on to the next.
  store.annotationQueues.updateItem(queueId as string, item.id, {
    status: "COMPLETED",
    completedByKeyId: memberId as string,
  });
  claimed.push(item.id);
  return true;
}

process.stdout.write("ready\n");
await waitFor("go");
const claimed: string[] = [];
claimOne(claimed);
process.stdout.write("first\n");
await waitFor("more");
while (claimOne(claimed)) {}
process.stdout.write(`${JSON.stringify(claimed)}\n`);
store.close();
process.exit(0);
