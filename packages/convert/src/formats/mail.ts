/**
 * E-mail: EML through mailparser, MSG through @kenjiuno/msgreader. The message
 * (headers + body) is one document; each attachment is handed back as a child
 * document and converted on its own (nested mail and archives included).
 */

import { DocumentError } from "../document-error.js";
import type { Block } from "../document-model.js";
import { htmlToBlocks } from "./html.js";
import {
  type ChildDocument,
  compactMetadata,
  type ParsedDocument,
  type ParseOptions,
} from "./parse-context.js";
import { textToBlocks } from "./plain-text.js";

interface MailParts {
  subject: string | undefined;
  from: string | undefined;
  to: string | undefined;
  cc: string | undefined;
  date: string | undefined;
  messageId: string | undefined;
  html: string | undefined;
  text: string | undefined;
  attachments: ChildDocument[];
}

function mailDocument(format: "eml" | "msg", parts: MailParts, options: ParseOptions): ParsedDocument {
  const blocks: Block[] = [];
  if (parts.subject !== undefined && parts.subject !== "")
    blocks.push({ type: "heading", level: 1, text: parts.subject });
  const header: string[] = [];
  if (parts.from) header.push(`From: ${parts.from}`);
  if (parts.to) header.push(`To: ${parts.to}`);
  if (parts.cc) header.push(`Cc: ${parts.cc}`);
  if (parts.date) header.push(`Date: ${parts.date}`);
  if (header.length > 0) blocks.push({ type: "paragraph", text: header.join("\n") });
  if (parts.html !== undefined && parts.html.trim() !== "") {
    blocks.push(...htmlToBlocks(parts.html, { embedImages: options.embedImages }).blocks);
  } else if (parts.text !== undefined) {
    blocks.push(...textToBlocks(parts.text));
  }
  if (parts.attachments.length > 0) {
    blocks.push({
      type: "list",
      ordered: false,
      items: parts.attachments.map((attachment) => ({
        text: `Attachment: ${attachment.filename}`,
        depth: 0,
      })),
    });
  }
  const expanded = parts.attachments.reduce((sum, attachment) => sum + attachment.bytes.length, 0);
  if (expanded > options.expansionBudget) {
    throw new DocumentError(
      "limit_exceeded",
      `The attachments hold ${expanded} bytes, more than the ${options.expansionBudget} bytes left for expanded content`,
    );
  }
  return {
    model: {
      schema: "groundwork.document/v1",
      format,
      metadata: compactMetadata({
        title: parts.subject,
        subject: parts.subject,
        from: parts.from,
        to: parts.to,
        cc: parts.cc,
        date: parts.date,
        messageId: parts.messageId,
        attachments: parts.attachments.map((attachment) => attachment.filename),
      }),
      notes: [],
      blocks,
    },
    children: parts.attachments,
    pagesWithoutText: [],
    expandedBytes: expanded,
  };
}

function attachmentName(
  name: string | undefined | null,
  index: number,
  mimeType: string | undefined,
): string {
  if (name !== undefined && name !== null && name.trim() !== "") return name.replace(/[\\/]/g, "_");
  const ext = mimeType === "message/rfc822" ? "eml" : (mimeType?.split("/")[1]?.split(/[;+]/)[0] ?? "bin");
  return `attachment-${index + 1}.${ext}`;
}

export async function parseEml(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const { simpleParser } = await import("mailparser");
  let mail: import("mailparser").ParsedMail;
  try {
    mail = await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      skipImageLinks: true,
      skipTextToHtml: true,
      skipTextLinks: true,
    });
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The e-mail could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const address = (
    value: import("mailparser").AddressObject | import("mailparser").AddressObject[] | undefined,
  ) =>
    value === undefined
      ? undefined
      : (Array.isArray(value) ? value : [value])
          .flatMap((v) => v.value)
          .map((a) => (a.name ? (a.address ? `${a.name} <${a.address}>` : a.name) : (a.address ?? "")))
          .filter((a) => a !== "")
          .join(", ");
  return mailDocument(
    "eml",
    {
      subject: mail.subject,
      from: address(mail.from),
      to: address(mail.to),
      cc: address(mail.cc),
      date: mail.date?.toISOString(),
      messageId: mail.messageId,
      html: typeof mail.html === "string" ? mail.html : undefined,
      text: mail.text,
      attachments: mail.attachments.map((attachment, index) => ({
        filename: attachmentName(attachment.filename, index, attachment.contentType),
        bytes: new Uint8Array(attachment.content),
        mimeType: attachment.contentType,
      })),
    },
    options,
  );
}

/** An embedded message is named after its display name (or subject), as mail clients show it. */
function embeddedMessageName(
  attachment: { name?: string; innerMsgContentFields?: { subject?: string } },
  index: number,
): string {
  const title = attachment.name?.trim() || attachment.innerMsgContentFields?.subject?.trim();
  if (title === undefined || title === "") return `attachment-${index + 1}.msg`;
  const name = title.replace(/[\\/]/g, "_");
  return name.toLowerCase().endsWith(".msg") ? name : `${name}.msg`;
}

export async function parseMsg(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const { default: MsgReaderModule } = await import("@kenjiuno/msgreader");
  const MsgReader =
    (MsgReaderModule as unknown as { default?: typeof MsgReaderModule }).default ?? MsgReaderModule;
  let reader: InstanceType<typeof MsgReader>;
  let data: ReturnType<InstanceType<typeof MsgReader>["getFileData"]>;
  try {
    reader = new MsgReader(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    data = reader.getFileData();
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The MSG could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if ((data as { error?: string }).error !== undefined) {
    throw new DocumentError(
      "corrupt_document",
      `The MSG could not be read: ${(data as { error?: string }).error}`,
    );
  }
  const attachments: ChildDocument[] = [];
  for (const [index, attachment] of (data.attachments ?? []).entries()) {
    try {
      // An embedded message comes back from msgreader as a standalone .msg file of its own,
      // so it is converted (and its attachments expanded) like any attached .msg.
      const file = reader.getAttachment(attachment);
      const embedded = attachment.innerMsgContent === true;
      attachments.push({
        filename: embedded
          ? embeddedMessageName(attachment, index)
          : attachmentName(file.fileName || attachment.fileName, index, attachment.attachMimeTag),
        bytes: new Uint8Array(file.content),
        ...(embedded
          ? { mimeType: "application/vnd.ms-outlook" }
          : attachment.attachMimeTag === undefined
            ? {}
            : { mimeType: attachment.attachMimeTag }),
      });
    } catch {
      // An unreadable attachment is skipped; the message itself still converts.
    }
  }
  const recipients = (data.recipients ?? [])
    .map((r) => (r.email ? `${r.name ?? ""} <${r.email}>`.trim() : (r.name ?? "")))
    .filter((r) => r !== "");
  const sender = data.senderEmail ? `${data.senderName ?? ""} <${data.senderEmail}>`.trim() : data.senderName;
  const date = data.messageDeliveryTime ?? data.clientSubmitTime ?? data.creationTime;
  return mailDocument(
    "msg",
    {
      subject: data.subject,
      from: sender,
      to: recipients.length > 0 ? recipients.join(", ") : undefined,
      cc: undefined,
      date:
        date === undefined
          ? undefined
          : (() => {
              const parsed = new Date(date);
              return Number.isNaN(parsed.getTime()) ? date : parsed.toISOString();
            })(),
      messageId: undefined,
      html: data.bodyHtml,
      text: data.body,
      attachments,
    },
    options,
  );
}
