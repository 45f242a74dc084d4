/**
 * Memory (PLATFORM.md §3.4): the calling key's own file tree under `/memories`, and
 * for Admins the organization's usage per member and erasing one member's memory.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const path = z.string().describe("a path under /memories, e.g. /memories/notes.md");
const ifMatch = z
  .string()
  .optional()
  .describe("the sha256 the file must still have; a different one answers precondition_failed");

export const memoryTools = [
  defineTool({
    name: "list_my_memory_files",
    group: "Memory",
    title: "List my memory files",
    description: "Lists the metadata of your memory files at and below a path, ordered by path.",
    readOnly: true,
    input: { prefix: path.optional().describe("a directory or file path (default /memories)"), ...page },
    run: (client, args) => client.memory.list(defined(args)),
  }),
  defineTool({
    name: "read_my_memory_file",
    group: "Memory",
    title: "Read a memory file",
    description:
      "Reads one of your memory files, whole or a range of lines, with its sha256 for later edits.",
    readOnly: true,
    input: {
      path,
      startLine: z.number().int().min(1).optional().describe("first line, 1-based (default 1)"),
      endLine: z.number().int().min(-1).optional().describe("last line, inclusive; -1 or absent = the end"),
    },
    run: (client, args) => client.memory.read(defined(args)),
  }),
  defineTool({
    name: "write_my_memory_file",
    group: "Memory",
    title: "Write a memory file",
    description:
      "Changes your memory: create (content, overwrite), str_replace (oldStr must occur once, newStr), insert (insertText after line insertLine, 0 = first) or rename (newPath; directories move whole).",
    readOnly: false,
    destructive: true,
    input: {
      command: z.enum(["create", "str_replace", "insert", "rename"]).describe("the write command"),
      path,
      content: z.string().optional().describe("create: the file's text (may be empty)"),
      overwrite: z.boolean().optional().describe("create: replace an existing file (default false)"),
      oldStr: z.string().optional().describe("str_replace: the text to replace, occurring exactly once"),
      newStr: z.string().optional().describe("str_replace: the replacement (default empty)"),
      insertLine: z
        .number()
        .int()
        .optional()
        .describe("insert: the line to insert after (0 = before the first)"),
      insertText: z.string().optional().describe("insert: the lines to insert"),
      newPath: path.optional().describe("rename: the new path"),
      ifMatch,
    },
    run: (client, args) => client.memory.write(defined(args)),
  }),
  defineTool({
    name: "delete_my_memory_file",
    group: "Memory",
    title: "Delete a memory file",
    description: "Deletes one of your memory files, or a directory with everything below it.",
    readOnly: false,
    destructive: true,
    input: { path, ifMatch },
    run: async (client, args) => {
      await client.memory.delete(defined(args));
      return { ok: true };
    },
  }),
  defineTool({
    name: "forget_my_memory",
    group: "Memory",
    title: "Forget my memory",
    description: "Deletes every memory file of yours; answers how many files and bytes were freed.",
    readOnly: false,
    destructive: true,
    input: {},
    run: (client) => client.memory.forget(),
  }),
  defineTool({
    name: "list_member_memory_usage",
    group: "Memory",
    title: "List memory usage per member",
    description:
      "Lists the organization's members that have memory, largest first, with their quota (Admin).",
    readOnly: true,
    input: { ...page },
    run: (client, args) => client.memory.usage(defined(args)),
  }),
  defineTool({
    name: "erase_member_memory",
    group: "Memory",
    title: "Erase a member's memory",
    description: "Deletes every memory file of one member (an API key of the organization) (Admin).",
    readOnly: false,
    destructive: true,
    input: { memberId: z.string().describe("the member's API key id (key_…)") },
    run: (client, args) => client.memory.erase(args.memberId),
  }),
];
