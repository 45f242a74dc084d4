/**
 * Skill binding strings (PLATFORM.md §4.4): `name`, `namespace:name`, optionally
 * `@ref` — the definition's `skills[]` entries `{name, ref?}` and the `platform.skill`
 * tool's `skills[]` strings.
 */
import { invalidRequest } from "@groundwork/core";
import type { AgentDefinition } from "../definition.js";

export const SKILL_BINDING_NAME_REGEX = /^[a-z0-9]+(-[a-z0-9]+)*(:[a-z0-9]+(-[a-z0-9]+)*)?$/;

export interface SkillBindingRef {
  /** The binding as written: `name`, `namespace:name`, with `@ref` when it has one. */
  binding: string;
  /** `name` or `namespace:name`. */
  qualifiedName: string;
  namespace: string | null;
  name: string;
  /** Null: the `latest` label. */
  ref: string | null;
}

export interface AgentSkillBinding extends SkillBindingRef {
  source: "skills" | "platform.skill";
}

/** Parses `name[@ref]`; 400 naming `param` when the name part does not match the pattern. */
export function parseSkillBinding(text: string, param = "name"): SkillBindingRef {
  const at = text.indexOf("@");
  const qualifiedName = at < 0 ? text : text.slice(0, at);
  const ref = at < 0 ? null : text.slice(at + 1);
  if (qualifiedName.length > 201 || !SKILL_BINDING_NAME_REGEX.test(qualifiedName)) {
    throw invalidRequest(
      `"${text.slice(0, 210)}" is not a skill binding: expected name or namespace:name (lowercase words joined by hyphens), optionally @ref`,
      { param },
    );
  }
  if (ref !== null && (ref.trim() === "" || /\s/.test(ref))) {
    throw invalidRequest("The @ref part of a skill binding must be a label name or a version number", {
      param,
    });
  }
  return { binding: text, qualifiedName, ref, ...splitQualifiedName(qualifiedName) };
}

/** `namespace:name` → both parts; `name` → a null namespace. */
export function splitQualifiedName(qualifiedName: string): { namespace: string | null; name: string } {
  const colon = qualifiedName.indexOf(":");
  return colon < 0
    ? { namespace: null, name: qualifiedName }
    : { namespace: qualifiedName.slice(0, colon), name: qualifiedName.slice(colon + 1) };
}

/**
 * Every skill binding of a definition, in order: the `skills[]` entries, then each
 * `platform.skill` tool's `skills[]` strings. Definitions were validated when applied,
 * so a binding that does not parse (an older definition) is kept with its text only.
 */
export function agentSkillBindings(definition: AgentDefinition): AgentSkillBinding[] {
  const out: AgentSkillBinding[] = [];
  const add = (text: string, source: AgentSkillBinding["source"], ref?: string | null) => {
    const at = text.indexOf("@");
    const qualifiedName = source === "skills" || at < 0 ? text : text.slice(0, at);
    const parsedRef = source === "skills" ? (ref ?? null) : at < 0 ? null : text.slice(at + 1);
    const binding = source === "skills" && ref != null ? `${text}@${ref}` : text;
    out.push({ binding, qualifiedName, ref: parsedRef, source, ...splitQualifiedName(qualifiedName) });
  };
  for (const entry of definition.skills ?? []) add(entry.name, "skills", entry.ref ?? null);
  for (const tool of definition.tools ?? []) {
    if ("type" in tool && tool.type === "platform.skill") {
      for (const text of (tool as { skills: string[] }).skills) add(text, "platform.skill");
    }
  }
  return out;
}
