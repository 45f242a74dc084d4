/**
 * Prompt compile of a 10 KB text template with 50 variables (target p50 < 0.2 ms) through
 * `groundwork.prompts.compile` (store lookups of the prompt, label and version, the cached
 * parse, the missing-variables check and the fill), beside two floors: the compile of the
 * already-loaded version alone, and a plain `String.prototype.replaceAll` loop over the 50
 * placeholders of the same template.
 * Run: npx vitest bench --run --project platform prompt-compile
 */
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";

const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({ store });
const org = (await groundwork.principal("bench")).organizationId;

const names = Array.from({ length: 50 }, (_, i) => `var_${i}`);
const filler = "Some literal instructions for the model, kept as prose between the placeholders. ";
let template = "";
for (let i = 0; template.length < 10_000; i++) template += `${filler}{{ ${names[i % names.length]} }} `;
const variables = Object.fromEntries(names.map((name, i) => [name, `value number ${i}`]));

await groundwork.prompts.create(org, {
  name: "bench/big",
  type: "text",
  prompt: template,
  labels: ["production"],
});
const version = await store.prompts.latestVersion((await groundwork.prompts.get(org, "bench/big")).id);
if (version === null) throw new Error("no version");

describe(`compile a ${template.length}-char template with ${names.length} variables`, () => {
  bench("groundwork.prompts.compile (by name, production label)", async () => {
    await groundwork.prompts.compile(org, "bench/big", { variables });
  });

  bench("compileVersion on the loaded version (cached parse)", () => {
    groundwork.prompts.compileVersion(version, variables);
  });

  bench("baseline: replaceAll over the 50 placeholders", () => {
    let text = template;
    for (const name of names) text = text.replaceAll(`{{ ${name} }}`, variables[name] as string);
  });
});
