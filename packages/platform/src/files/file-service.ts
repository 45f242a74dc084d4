/**
 * Files of an organization (the tool server's Files group): stored once, read by
 * knowledge bases (attach) and agents. The shapes follow the OpenAI Files API
 * (docs/knowledge-bases.md); this service holds the rules, the routes only read
 * multipart bodies and render.
 */
import {
  type Allowance,
  gone,
  invalidRequest,
  notFound,
  type PageRequest,
  type Principal,
  payloadTooLarge,
} from "@groundwork/core";
import type { FileRecord } from "@groundwork/store-sqlite";
import { detectUpload } from "../knowledge/document-parser.js";
import type { PlatformStore } from "../store-port.js";

export const FILE_PURPOSES = ["knowledge", "user_data", "assistants"] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export interface FileUpload {
  filename: string;
  purpose: string;
  content: Uint8Array;
  /** The type the sender declared; the content decides when it is recognised. */
  mimeType?: string | undefined;
}

export class FileService {
  constructor(
    private readonly store: PlatformStore,
    /** Asked before a file is stored (`402 storage_exhausted`, PLATFORM.md §15); none: not limited. */
    private readonly allowance?: Allowance,
  ) {}

  async upload(principal: Principal, upload: FileUpload): Promise<FileRecord> {
    const purpose = checkPurpose(upload.purpose);
    const size = upload.content.byteLength;
    if (size > MAX_FILE_BYTES) {
      throw payloadTooLarge(`file is ${size} bytes; at most ${MAX_FILE_BYTES} (25 MB) are accepted`, {
        param: "file",
        code: "file_too_large",
      });
    }
    if (size === 0) throw invalidRequest("file is empty", { param: "file" });
    const filename = upload.filename || "upload";
    await this.allowance?.checkStorage?.(principal.organizationId, size);
    return await this.store.files.create({
      organizationId: principal.organizationId,
      filename,
      purpose,
      mime: mimeOf(upload.content, filename, upload.mimeType ?? ""),
      bytes: upload.content,
    });
  }

  async list(
    organizationId: string,
    page: PageRequest,
    purpose?: string,
  ): Promise<{ items: FileRecord[]; total: number }> {
    return await this.store.files.list(
      organizationId,
      page,
      purpose === undefined ? undefined : checkPurpose(purpose),
    );
  }

  /** A live file of the organization: 404 unknown, 410 deleted. */
  async get(organizationId: string, fileId: string): Promise<FileRecord> {
    const file = await this.store.files.get(organizationId, fileId);
    if (file === null) throw notFound(`No file ${fileId}`, { param: "fileId" });
    if (file.deletedAt !== null) throw gone(`The file ${fileId} was deleted`, { param: "fileId" });
    return file;
  }

  async content(organizationId: string, fileId: string): Promise<{ file: FileRecord; bytes: Uint8Array }> {
    const file = await this.get(organizationId, fileId);
    const bytes = await this.store.files.content(file.organizationId, file.id);
    if (bytes === null) throw gone(`The file ${file.id} was deleted`, { param: "fileId" });
    return { file, bytes };
  }

  async delete(principal: Principal, fileId: string): Promise<void> {
    const file = await this.get(principal.organizationId, fileId);
    await this.store.files.delete(file.organizationId, file.id);
  }
}

function checkPurpose(purpose: string): FilePurpose {
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose)) {
    throw invalidRequest(`purpose must be one of ${FILE_PURPOSES.join(", ")}`, { param: "purpose" });
  }
  return purpose as FilePurpose;
}

function mimeOf(bytes: Uint8Array, filename: string, declared: string): string {
  try {
    return detectUpload(bytes, filename, declared === "" ? undefined : declared).mime;
  } catch {
    return declared === "" ? "application/octet-stream" : declared;
  }
}
