/**
 * The label rules every versioned resource with a stored `latest` system label
 * shares (schemas, prompts, skills — PLATFORM.md §1.1 "Versions + labels"):
 * `latest` is never created, moved or deleted by hand (409), an existing name is
 * a conflict, a label targets an active version of its own parent (404 / 409).
 * Each service supplies how its labels are stored and how a version is found;
 * the rules and their wording live here once.
 */

import type { MaybePromise } from "@groundwork/core";
import { conflict, notFound } from "@groundwork/core";
import { LATEST_LABEL } from "@groundwork/store-sqlite";

/** How a resource stores its labels (a store's label table). */
export interface LabelStorage<TLabel> {
  getLabel(ownerId: string, name: string): MaybePromise<TLabel | null>;
  createLabel(ownerId: string, name: string, versionId: string): MaybePromise<boolean>;
  updateLabel(ownerId: string, name: string, versionId: string): MaybePromise<boolean>;
  deleteLabel(ownerId: string, name: string): MaybePromise<boolean>;
}

export interface LabelledVersion {
  id: string;
  active: boolean;
}

export interface VersionLabelsOptions<TLabel, TVersion extends LabelledVersion> {
  /** The resource named in messages: "Schema", "Prompt", "Skill". */
  noun: string;
  /** The body field naming the target version: "schemaVersionId", … */
  versionParam: string;
  storage: LabelStorage<TLabel>;
  /** A version of that parent by id (or number, where the resource accepts one); null when none. */
  findVersion(ownerId: string, versionRef: string): MaybePromise<TVersion | null>;
}

export class VersionLabels<TLabel, TVersion extends LabelledVersion> {
  constructor(private readonly options: VersionLabelsOptions<TLabel, TVersion>) {}

  /** The label, or 404. */
  async get(ownerId: string, name: string): Promise<TLabel> {
    const label = await this.options.storage.getLabel(ownerId, name);
    if (label === null) throw notFound(`${this.options.noun} ${ownerId} has no label "${name}"`);
    return label;
  }

  async create(ownerId: string, name: string, versionRef: string): Promise<TLabel> {
    const { noun, storage } = this.options;
    if (name === LATEST_LABEL) {
      throw conflict(`"${LATEST_LABEL}" is the system label; it moves to each new version by itself`, {
        param: "name",
      });
    }
    const version = await this.target(ownerId, versionRef);
    if (!(await storage.createLabel(ownerId, name, version.id))) {
      throw conflict(`${noun} ${ownerId} already has a label "${name}"; move it instead of creating it`, {
        param: "name",
      });
    }
    return await this.get(ownerId, name);
  }

  async move(ownerId: string, name: string, versionRef: string): Promise<TLabel> {
    if (name === LATEST_LABEL)
      throw conflict(`"${LATEST_LABEL}" is the system label and cannot be moved by hand`);
    await this.get(ownerId, name);
    const version = await this.target(ownerId, versionRef);
    await this.options.storage.updateLabel(ownerId, name, version.id);
    return await this.get(ownerId, name);
  }

  /** Points a label at an active version, creating it when absent (an activate's `production`). */
  async set(ownerId: string, name: string, versionId: string): Promise<TLabel> {
    const { storage } = this.options;
    if (!(await storage.createLabel(ownerId, name, versionId)))
      await storage.updateLabel(ownerId, name, versionId);
    return await this.get(ownerId, name);
  }

  async delete(ownerId: string, name: string): Promise<void> {
    if (name === LATEST_LABEL) throw conflict(`"${LATEST_LABEL}" is the system label and cannot be deleted`);
    if (!(await this.options.storage.deleteLabel(ownerId, name))) {
      throw notFound(`${this.options.noun} ${ownerId} has no label "${name}"`);
    }
  }

  /** A version of this parent a label may point at: 404 when it is not one, 409 when deactivated. */
  async target(ownerId: string, versionRef: string): Promise<TVersion> {
    const { noun, versionParam } = this.options;
    const version = await this.options.findVersion(ownerId, versionRef);
    if (version === null) {
      throw notFound(`${noun} ${ownerId} has no version ${versionRef}`, { param: versionParam });
    }
    if (!version.active) throw conflict(`Version ${versionRef} is deactivated`, { param: versionParam });
    return version;
  }
}
