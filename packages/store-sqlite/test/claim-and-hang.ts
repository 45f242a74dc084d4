// Child process for the crash test: claims one job, announces it, then works forever
// until the parent kills it. Run with `node --import tsx` from the repository root.
import { openStore } from "../src/open-store.js";

const [file, leaseMs] = process.argv.slice(2);
if (file === undefined || leaseMs === undefined) throw new Error("usage: claim-and-hang <db> <leaseMs>");
const store = openStore({ file });
const job = await store.jobs.claim(["convert"], "doomed-worker", Number(leaseMs));
process.stdout.write(`claimed ${job?.id ?? "nothing"}\n`);
setInterval(() => {}, 1000);
