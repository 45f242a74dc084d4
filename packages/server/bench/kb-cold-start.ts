/**
 * One cold start, in a process of its own (run by kb-bench.ts): the store opened on a database
 * at rest, then a knowledge base's indexes loaded as an app's boot loads them
 * (`KnowledgeService.warm`: both legs at once, the vector packs read on a worker thread). Prints
 * one JSON line: milliseconds to open and to load, MB read from the disk, RSS after.
 *
 *   node --import tsx packages/server/bench/kb-cold-start.ts <database file> <knowledge base id>
 */
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";
import { diskReadMb, rssMb } from "./process-figures.js";

const [file, knowledgeBaseId] = process.argv.slice(2);
if (file === undefined || knowledgeBaseId === undefined)
  throw new Error("usage: kb-cold-start.ts <database file> <knowledge base id>");
const diskBefore = diskReadMb();
const started = performance.now();
const store = openStore({ file, secret: "benchmark-master-secret" });
const opened = performance.now();
const gw = createGroundwork({ store });
const kb = store.knowledgeBases.getKnowledgeBase(knowledgeBaseId);
if (kb === null) throw new Error(`no knowledge base ${knowledgeBaseId}`);
const organization = store.organizations.get(kb.organizationId);
const principal = await gw.principal(organization?.name);
await gw.knowledge.warm(principal, [knowledgeBaseId]);
const loaded = performance.now();
console.log(
  JSON.stringify({
    openMs: Math.round(opened - started),
    warmMs: Math.round(loaded - opened),
    diskMb: diskReadMb() - diskBefore,
    rssMb: rssMb(),
    readerLoads: store.kbVectors.readerLoads,
  }),
);
await gw.close();
