/**
 * The bookkeeping rows every versioned resource (schemas, prompts, skills, agents) shares in
 * both SQL stores: a label row (a named pointer from the resource to one of its versions).
 */
export const LATEST_LABEL = "latest";

export interface LabelRow {
  owner_id: string;
  name: string;
  version_id: string | null;
  created_at: number;
  updated_at: number;
}
