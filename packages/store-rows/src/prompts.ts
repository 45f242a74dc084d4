/** Prompts (PLATFORM.md §7): records, inputs and rows of prompts, versions and labels, for both SQL stores. */
import { bool, int, intOrNull, json } from "./columns.js";
import type { LabelRow } from "./versioned.js";

export type PromptType = "text" | "chat";

export interface PromptMessage {
  role: "system" | "developer" | "user" | "assistant";
  content: string;
}

/** A text prompt's template, or a chat prompt's messages. */
export type PromptContent = string | PromptMessage[];

export interface PromptRecord {
  id: string;
  organizationId: string;
  name: string;
  type: PromptType;
  description: string | null;
  tags: string[];
  latestVersionId: string | null;
  latestVersionNumber: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface PromptVersionRecord {
  id: string;
  promptId: string;
  versionNumber: number;
  prompt: PromptContent;
  config: Record<string, unknown>;
  variables: string[];
  changeDescription: string | null;
  active: boolean;
  copiedFromVersionId: string | null;
  createdAt: number;
  deactivatedAt: number | null;
}

export interface PromptLabelRecord {
  promptId: string;
  name: string;
  promptVersionId: string | null;
  /** The number of the version it points at; null with it. */
  versionNumber: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface PromptFilter {
  /** Case-insensitive substring of the name. */
  name?: string | undefined;
  tag?: string | undefined;
  type?: PromptType | undefined;
  /** Prompts with a label of that name pointing at a version. */
  label?: string | undefined;
}

export interface PromptVersionInput {
  prompt: PromptContent;
  config: Record<string, unknown>;
  variables: string[];
  changeDescription?: string | null;
  copiedFromVersionId?: string | null;
}

export interface PromptRow {
  id: string;
  organization_id: string;
  name: string;
  type: string;
  description: string | null;
  /** JSON text of the tags. */
  tags: unknown;
  latest_version_id: string | null;
  latest_version_number: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export interface PromptVersionRow {
  id: string;
  prompt_id: string;
  version_number: unknown;
  /** JSON text of a string (text prompt) or a message array (chat): TEXT on both stores. */
  prompt: string;
  config: unknown;
  variables: unknown;
  change_description: string | null;
  active: unknown;
  copied_from_version_id: string | null;
  created_at: unknown;
  deactivated_at: unknown;
}

export function toPrompt(row: PromptRow): PromptRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    type: row.type as PromptType,
    description: row.description,
    tags: json<string[]>(row.tags),
    latestVersionId: row.latest_version_id,
    latestVersionNumber: intOrNull(row.latest_version_number),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function toPromptVersion(row: PromptVersionRow): PromptVersionRecord {
  return {
    id: row.id,
    promptId: row.prompt_id,
    versionNumber: int(row.version_number),
    prompt: JSON.parse(row.prompt) as PromptContent,
    config: json<Record<string, unknown>>(row.config),
    variables: json<string[]>(row.variables),
    changeDescription: row.change_description,
    active: bool(row.active),
    copiedFromVersionId: row.copied_from_version_id,
    createdAt: int(row.created_at),
    deactivatedAt: intOrNull(row.deactivated_at),
  };
}

/** A label row as the record, given the number of the version it points at (null with it). */
export function toPromptLabel(row: LabelRow, versionNumber: number | null): PromptLabelRecord {
  return {
    promptId: row.owner_id,
    name: row.name,
    promptVersionId: row.version_id,
    versionNumber,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}
