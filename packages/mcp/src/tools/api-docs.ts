/**
 * The API documentation tools serve the project's own docs (the markdown files of
 * the repository's docs/ folder): one section per file.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { notFound } from "@groundwork/core";
import { z } from "zod";
import { defineTool } from "../tool.js";

/** The repository's docs/ folder, found by walking up from this module (its depth differs in src and dist). */
export const DEFAULT_DOCS_DIR = findDocsDir(dirname(fileURLToPath(import.meta.url)));

function findDocsDir(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "docs", "architecture.md"))) return join(dir, "docs");
    if (dirname(dir) === dir) return join(start, "docs");
  }
}

export interface DocSection {
  id: string;
  title: string;
  headings: string[];
}

export function listDocSections(dir: string): DocSection[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), "utf8");
      return {
        id: name.slice(0, -3),
        title: /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? name,
        headings: [...text.matchAll(/^##\s+(.+)$/gm)].map((m) => (m[1] ?? "").trim()),
      };
    });
}

export function apiDocTools(dir: string) {
  return [
    defineTool({
      name: "list_api_doc_sections",
      group: "API Documentation",
      title: "List API documentation sections",
      description: "Lists the sections of the Groundwork API documentation (id, title, headings).",
      readOnly: true,
      input: {},
      run: async () => ({ sections: listDocSections(dir) }),
    }),
    defineTool({
      name: "get_api_docs",
      group: "API Documentation",
      title: "Read API documentation",
      description:
        "Returns one documentation section as markdown; optionally only the part under one heading.",
      readOnly: true,
      input: {
        section: z.string().describe("section id from list_api_doc_sections, e.g. gateway"),
        heading: z.string().optional().describe("only the part under this ## heading"),
      },
      run: async (_client, args) => {
        const section = listDocSections(dir).find((s) => s.id === args.section);
        if (section === undefined)
          throw notFound(`No documentation section "${args.section}"`, { param: "section" });
        const text = readFileSync(join(dir, `${section.id}.md`), "utf8");
        if (args.heading === undefined) return { section: section.id, markdown: text };
        const parts = text.split(/^(?=##\s)/m);
        const part = parts.find((p) => p.startsWith(`## ${args.heading}`));
        if (part === undefined)
          throw notFound(`No heading "${args.heading}" in ${section.id}`, { param: "heading" });
        return { section: section.id, heading: args.heading, markdown: part };
      },
    }),
  ];
}
