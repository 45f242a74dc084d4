/** Writes docs/agent-definition.schema.json from the TypeScript module (the single source). */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { agentDefinitionSchema } from "../src/definition-schema.js";

const target = fileURLToPath(new URL("../../../docs/agent-definition.schema.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(agentDefinitionSchema, null, 2)}\n`);
console.log(`wrote ${target}`);
