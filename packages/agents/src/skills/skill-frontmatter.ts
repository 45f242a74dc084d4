/**
 * `SKILL.md`'s YAML frontmatter (PLATFORM.md §4.1): a leading `---` block holding
 * `name` and `description` (required), `license`, `allowed-tools` and `metadata`
 * (kept); any other key is refused. Parsed with the `yaml` package (YAML 1.2 core
 * schema: no dates, no custom tags, few aliases).
 */
import { invalidRequest } from "@groundwork/core";
import { parseDocument } from "yaml";
import { SKILL_DESCRIPTION_MAX_LENGTH, SKILL_NAME_MAX_LENGTH, SKILL_NAME_REGEX } from "./skill-limits.js";

export interface SkillFrontmatter {
  name: string;
  description: string;
  /** The whole frontmatter as parsed (only the keys of §4.1). */
  frontmatter: Record<string, unknown>;
  /** The text after the frontmatter block. */
  body: string;
}

const ALLOWED_KEYS = new Set(["name", "description", "license", "allowed-tools", "metadata"]);
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

function invalid(message: string, param: string) {
  return invalidRequest(message, { param, code: "invalid_skill" });
}

/** The frontmatter block and the body after it, without validating the YAML. */
export function splitFrontmatter(text: string): { yaml: string; body: string } | null {
  const opening = OPENING.exec(text);
  if (opening === null) return null;
  const rest = text.slice(opening[0].length);
  // An empty block closes on the very next line.
  const closing = CLOSING.exec(rest);
  if (closing === null) return null;
  const afterClosing = rest.slice(closing.index + closing[0].length);
  return { yaml: rest.slice(0, closing.index), body: afterClosing.replace(/^\r?\n/, "") };
}

/** The body of a `SKILL.md` (the frontmatter removed); the whole text when there is none. */
export function skillMdBody(text: string): string {
  return splitFrontmatter(text)?.body ?? text;
}

/** Parses and checks the frontmatter of a `SKILL.md`; 400 `invalid_skill` naming the place otherwise. */
export function parseSkillFrontmatter(text: string): SkillFrontmatter {
  const split = splitFrontmatter(text);
  if (split === null) {
    throw invalid("SKILL.md must start with a YAML frontmatter block between --- lines", "SKILL.md");
  }
  const document = parseDocument(split.yaml, { uniqueKeys: true, prettyErrors: false, logLevel: "error" });
  const [error] = document.errors;
  if (error !== undefined) {
    throw invalid(`SKILL.md frontmatter is not valid YAML: ${error.message.split("\n")[0]}`, "SKILL.md");
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 20 });
  } catch (cause) {
    throw invalid(
      `SKILL.md frontmatter cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`,
      "SKILL.md",
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid("SKILL.md frontmatter must be a mapping with name and description", "SKILL.md");
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!ALLOWED_KEYS.has(key)) {
      throw invalid(
        `SKILL.md frontmatter has an unknown key "${key}" (allowed: name, description, license, allowed-tools, metadata)`,
        `SKILL.md:${key}`,
      );
    }
  }
  const name = fields.name;
  if (typeof name !== "string" || name.length === 0) {
    throw invalid("SKILL.md frontmatter needs a name (a string)", "SKILL.md:name");
  }
  if (name.length > SKILL_NAME_MAX_LENGTH || !SKILL_NAME_REGEX.test(name)) {
    throw invalid(
      `name must be 1–${SKILL_NAME_MAX_LENGTH} characters of lowercase letters and digits joined by single hyphens`,
      "SKILL.md:name",
    );
  }
  const description = fields.description;
  if (typeof description !== "string" || description.length === 0) {
    throw invalid("SKILL.md frontmatter needs a description (a non-empty string)", "SKILL.md:description");
  }
  if (description.length > SKILL_DESCRIPTION_MAX_LENGTH) {
    throw invalid(
      `description must be at most ${SKILL_DESCRIPTION_MAX_LENGTH} characters`,
      "SKILL.md:description",
    );
  }
  if ("license" in fields && typeof fields.license !== "string") {
    throw invalid("license must be a string", "SKILL.md:license");
  }
  const tools = fields["allowed-tools"];
  if (
    "allowed-tools" in fields &&
    typeof tools !== "string" &&
    !(Array.isArray(tools) && tools.every((tool) => typeof tool === "string"))
  ) {
    throw invalid("allowed-tools must be a string or an array of strings", "SKILL.md:allowed-tools");
  }
  const metadata = fields.metadata;
  if (
    "metadata" in fields &&
    (metadata === null ||
      typeof metadata !== "object" ||
      Array.isArray(metadata) ||
      !Object.values(metadata).every((entry) => typeof entry === "string"))
  ) {
    throw invalid("metadata must be a map of strings to strings", "SKILL.md:metadata");
  }
  return { name, description, frontmatter: fields, body: split.body };
}
