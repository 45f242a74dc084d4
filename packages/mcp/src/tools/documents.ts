import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, fileInput, page, toBlob } from "./common.js";

const pipeline = z.enum(["fast", "ocr", "vlm"]).optional().describe("processing pipeline (default fast)");
const options = z
  .record(z.string(), z.unknown())
  .optional()
  .describe("pipeline options, e.g. {outputFormats: ['MD','TEXT']}");
const files = z.array(z.object(fileInput)).min(1).describe("one or more files");
const knowledgeBaseId = z.string().describe("knowledge base id");
const documentId = z.string().describe("document id");
const fileId = z.string().describe("file id");

function convertInput(args: {
  files: Array<{ filename: string; contentBase64: string; mimeType?: string | undefined }>;
  pipeline?: "fast" | "ocr" | "vlm" | undefined;
  options?: Record<string, unknown> | undefined;
}) {
  return defined({
    files: args.files.map((file) => ({ file: toBlob(file), filename: file.filename })),
    pipeline: args.pipeline,
    options: args.options,
  });
}

export const conversionTools = [
  defineTool({
    name: "convert_document",
    group: "Document Conversion",
    title: "Convert documents from URLs or base64",
    description: "Converts documents (POST /v1/convert/source) to Markdown, text, JSON or HTML.",
    readOnly: false,
    input: {
      sources: z
        .array(
          z.union([
            z.object({
              kind: z.literal("http").describe("fetch from a URL"),
              url: z.string().describe("document address"),
              headers: z.record(z.string(), z.string()).optional().describe("headers for the source server"),
            }),
            z.object({
              kind: z.literal("base64").describe("inline bytes"),
              content: z.string().describe("base64 document bytes"),
              filename: z.string().optional().describe("file name"),
              mimeType: z.string().optional().describe("media type"),
            }),
          ]),
        )
        .min(1)
        .describe("documents to convert"),
      options: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("top-level options: pipeline, timeout, abortOnError, extractMetadata, options"),
    },
    run: (client, args) =>
      client.convert.source(defined(args) as Parameters<typeof client.convert.source>[0]),
  }),
  defineTool({
    name: "convert_file",
    group: "Document Conversion",
    title: "Convert uploaded files",
    description: "Converts files sent as base64 (multipart POST /v1/convert/file).",
    readOnly: false,
    input: { files, pipeline, options },
    run: (client, args) => client.convert.file(convertInput(args)),
  }),
  defineTool({
    name: "convert_file_async",
    group: "Document Conversion",
    title: "Convert files in the background",
    description: "Starts a background conversion task; poll get_task_status, then get_task_result.",
    readOnly: false,
    input: { files, pipeline, options },
    run: (client, args) => client.convert.fileAsync(convertInput(args)),
  }),
  defineTool({
    name: "get_task_status",
    group: "Document Conversion",
    title: "Get a conversion task",
    description: "Reads a conversion task's status; `wait` long-polls up to 60 s.",
    readOnly: true,
    input: {
      taskId: z.string().describe("task id"),
      wait: z.number().min(0).max(60).optional().describe("seconds to wait for a change"),
    },
    run: (client, args) => client.convert.task(args.taskId, args.wait),
  }),
  defineTool({
    name: "get_task_result",
    group: "Document Conversion",
    title: "Get a conversion result",
    description: "Reads the result of a finished conversion task.",
    readOnly: true,
    input: { taskId: z.string().describe("task id") },
    run: (client, args) => client.convert.result(args.taskId),
  }),
];

export const knowledgeTools = [
  defineTool({
    name: "list_knowledge_bases",
    group: "Knowledge Bases",
    title: "List knowledge bases",
    description: "Lists knowledge bases, newest first.",
    readOnly: true,
    input: { ...page },
    run: (client, args) => client.knowledgeBases.list(defined(args)),
  }),
  defineTool({
    name: "create_knowledge_base",
    group: "Knowledge Bases",
    title: "Create a knowledge base",
    description:
      "Creates a knowledge base; fields as the POST /v1/knowledge-bases body (name, slug, embedding model, chunking, language…).",
    readOnly: false,
    input: { body: z.record(z.string(), z.unknown()).describe("the create body") },
    run: (client, args) => client.knowledgeBases.create(args.body),
  }),
  defineTool({
    name: "get_knowledge_base",
    group: "Knowledge Bases",
    title: "Get a knowledge base",
    description: "Reads one knowledge base.",
    readOnly: true,
    input: { knowledgeBaseId },
    run: (client, args) => client.knowledgeBases.get(args.knowledgeBaseId),
  }),
  defineTool({
    name: "update_knowledge_base",
    group: "Knowledge Bases",
    title: "Update a knowledge base",
    description:
      "Replaces mutable settings (snapshotted as a new configuration version); embeddingDim cannot change.",
    readOnly: false,
    input: { knowledgeBaseId, body: z.record(z.string(), z.unknown()).describe("the update body") },
    run: (client, args) => client.knowledgeBases.update(args.knowledgeBaseId, args.body),
  }),
  defineTool({
    name: "delete_knowledge_base",
    group: "Knowledge Bases",
    title: "Delete a knowledge base",
    description: "Soft-deletes a knowledge base (Admin).",
    readOnly: false,
    destructive: true,
    input: { knowledgeBaseId },
    run: async (client, args) => {
      await client.knowledgeBases.delete(args.knowledgeBaseId);
      return { deleted: true, knowledgeBaseId: args.knowledgeBaseId };
    },
  }),
  defineTool({
    name: "list_knowledge_documents",
    group: "Knowledge Bases",
    title: "List documents",
    description: "Lists a knowledge base's documents with their serving revision.",
    readOnly: true,
    input: {
      knowledgeBaseId,
      status: z.string().optional().describe("filter on the current revision's status"),
    },
    run: (client, args) => client.knowledgeBases.documents.list(args.knowledgeBaseId, args.status),
  }),
  defineTool({
    name: "upload_knowledge_documents",
    group: "Knowledge Bases",
    title: "Upload documents",
    description:
      "Uploads files for ingestion (always accepted; each file gets its own entry). Poll get_knowledge_document_version until READY.",
    readOnly: false,
    input: { knowledgeBaseId, files },
    run: async (client, args) => ({
      results: await client.knowledgeBases.documents.upload(
        args.knowledgeBaseId,
        args.files.map((file) => ({ file: toBlob(file), filename: file.filename })),
      ),
    }),
  }),
  defineTool({
    name: "attach_knowledge_document_file",
    group: "Knowledge Bases",
    title: "Attach an uploaded file",
    description: "Ingests a file uploaded with upload_file (purpose knowledge).",
    readOnly: false,
    input: { knowledgeBaseId, fileId },
    run: (client, args) => client.knowledgeBases.documents.attach(args.knowledgeBaseId, args.fileId),
  }),
  defineTool({
    name: "get_knowledge_document",
    group: "Knowledge Bases",
    title: "Get a document",
    description: "Reads a document with its serving revision.",
    readOnly: true,
    input: { knowledgeBaseId, documentId },
    run: (client, args) => client.knowledgeBases.documents.get(args.knowledgeBaseId, args.documentId),
  }),
  defineTool({
    name: "delete_knowledge_document",
    group: "Knowledge Bases",
    title: "Delete a document",
    description: "Deletes a document (Admin); its citations resolve as WITHDRAWN.",
    readOnly: false,
    destructive: true,
    input: { knowledgeBaseId, documentId },
    run: async (client, args) => {
      await client.knowledgeBases.documents.delete(args.knowledgeBaseId, args.documentId);
      return { deleted: true, documentId: args.documentId };
    },
  }),
  defineTool({
    name: "get_knowledge_document_version",
    group: "Knowledge Bases",
    title: "Get a document revision",
    description: "Reads one revision; poll until READY or ERROR.",
    readOnly: true,
    input: { knowledgeBaseId, documentId, versionId: z.string().describe("revision id") },
    run: (client, args) =>
      client.knowledgeBases.documents.version(args.knowledgeBaseId, args.documentId, args.versionId),
  }),
  defineTool({
    name: "search_knowledge_base",
    group: "Knowledge Bases",
    title: "Search a knowledge base",
    description: "Hybrid (keyword + vector) search; hits carry chunk ids to resolve as citations.",
    readOnly: true,
    input: {
      knowledgeBaseId,
      query: z.string().min(1).describe("what to search for"),
      topK: z.number().int().optional().describe("number of hits (default 8, 1-100)"),
      metadataFilter: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("key/value filter on document metadata"),
    },
    run: (client, { knowledgeBaseId: id, ...body }) => client.knowledgeBases.search(id, defined(body)),
  }),
  defineTool({
    name: "resolve_citation",
    group: "Knowledge Bases",
    title: "Resolve a citation",
    description: "Resolves a chunk id to its text and source (WITHDRAWN when the document was deleted).",
    readOnly: true,
    input: { knowledgeBaseId, chunkId: z.string().describe("chunk id from a search hit") },
    run: (client, args) => client.knowledgeBases.citation(args.knowledgeBaseId, args.chunkId),
  }),
  defineTool({
    name: "list_provider_embedding_models",
    group: "Knowledge Bases",
    title: "List embedding models",
    description: "Lists a provider's embedding models with their widths; `builtin` lists the built-in ones.",
    readOnly: true,
    input: { providerId: z.string().describe("provider id, or builtin") },
    run: (client, args) => client.providers.embeddingModels(args.providerId),
  }),
];

export const fileTools = [
  defineTool({
    name: "list_files",
    group: "Files",
    title: "List files",
    description: "Lists uploaded files.",
    readOnly: true,
    input: { purpose: z.string().optional().describe("only files of this purpose"), ...page },
    run: (client, args) => client.files.list(defined(args)),
  }),
  defineTool({
    name: "upload_file",
    group: "Files",
    title: "Upload a file",
    description: "Uploads a file (purpose `knowledge` to attach it to a knowledge base later).",
    readOnly: false,
    input: { ...fileInput, purpose: z.string().describe("what the file is for, e.g. knowledge") },
    run: (client, args) =>
      client.files.upload({ file: toBlob(args), filename: args.filename, purpose: args.purpose }),
  }),
  defineTool({
    name: "get_file",
    group: "Files",
    title: "Get a file",
    description: "Reads a file's metadata.",
    readOnly: true,
    input: { fileId },
    run: (client, args) => client.files.get(args.fileId),
  }),
  defineTool({
    name: "delete_file",
    group: "Files",
    title: "Delete a file",
    description: "Deletes a file.",
    readOnly: false,
    destructive: true,
    input: { fileId },
    run: async (client, args) => {
      await client.files.delete(args.fileId);
      return { deleted: true, fileId: args.fileId };
    },
  }),
  defineTool({
    name: "download_file",
    group: "Files",
    title: "Download a file",
    description: "Downloads a file's content (text as text; binary as base64).",
    readOnly: true,
    input: { fileId },
    run: async (client, args) => {
      const body = await client.files.download(args.fileId);
      const textual = /^(text\/|application\/(json|xml|x-ndjson))/.test(body.contentType);
      return textual
        ? { contentType: body.contentType, text: body.text }
        : { contentType: body.contentType, contentBase64: Buffer.from(body.bytes).toString("base64") };
    },
  }),
];
