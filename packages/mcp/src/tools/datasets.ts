/**
 * Datasets (PLATFORM.md §8): the 13 `svc_` tools over /v1/datasets — datasets, items
 * (single and batch adds, expected-output updates, deletes) and frozen versions.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const datasetId = z.string().min(1).describe("the dataset id (ds_…)");
const itemId = z.string().min(1).describe("the dataset item id (dsi_…)");
const name = z.string().min(1).max(200).describe("the dataset name, 1-200 chars, unique in the organization");
const description = z.string().max(4000).nullable().describe("a description of up to 4000 chars, or null");
const metadata = z.record(z.string(), z.unknown()).describe("a JSON object (at most 16 KiB)");
const versionRef = z
  .union([z.string().min(1), z.number().int().min(1)])
  .describe("a version id (dsv_…) or version number");
const item = {
  input: z.unknown().describe("the item's input: any JSON value except null (required)"),
  expectedOutput: z.unknown().optional().describe("the expected output: any JSON value (default null)"),
  metadata: z.record(z.string(), z.unknown()).optional().describe("a JSON object (default {})"),
  sourceTraceId: z.string().nullable().optional().describe("the trace (trc_…) the item came from, or null"),
};

export const datasetTools = [
  defineTool({
    name: "list_datasets",
    group: "Datasets",
    title: "List datasets",
    description:
      "Lists the organization's datasets, newest first, optionally those whose name contains a text.",
    readOnly: true,
    input: { name: z.string().optional().describe("only datasets whose name contains this text"), ...page },
    run: (client, args) => client.datasets.list(defined(args)),
  }),
  defineTool({
    name: "get_dataset",
    group: "Datasets",
    title: "Get a dataset",
    description: "Reads one dataset: name, description, metadata, item count and latest version.",
    readOnly: true,
    input: { datasetId },
    run: (client, args) => client.datasets.get(args.datasetId),
  }),
  defineTool({
    name: "create_dataset",
    group: "Datasets",
    title: "Create a dataset",
    description: "Creates an empty dataset of test items (input / expected output) with a unique name.",
    readOnly: false,
    input: { name, description: description.optional(), metadata: metadata.optional() },
    run: (client, args) => client.datasets.create(defined(args)),
  }),
  defineTool({
    name: "update_dataset",
    group: "Datasets",
    title: "Update a dataset",
    description: "Changes the name, description or metadata (replaced as a whole) of a dataset.",
    readOnly: false,
    input: {
      datasetId,
      name: name.optional(),
      description: description.optional(),
      metadata: metadata.optional(),
    },
    run: (client, { datasetId: id, ...body }) => client.datasets.update(id, defined(body)),
  }),
  defineTool({
    name: "delete_dataset",
    group: "Datasets",
    title: "Delete a dataset",
    description:
      "Deletes a dataset with all its items and versions (Admin); refused while an experiment references it.",
    readOnly: false,
    destructive: true,
    input: { datasetId },
    run: async (client, args) => {
      await client.datasets.delete(args.datasetId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "get_dataset_versions",
    group: "Datasets",
    title: "List dataset versions",
    description: "Lists the frozen versions of a dataset, newest first.",
    readOnly: true,
    input: { datasetId, ...page },
    run: (client, { datasetId: id, ...query }) => client.datasets.versions.list(id, defined(query)),
  }),
  defineTool({
    name: "get_dataset_version",
    group: "Datasets",
    title: "Get a dataset version",
    description: "Reads one frozen version of a dataset, by id or number.",
    readOnly: true,
    input: { datasetId, vid: versionRef },
    run: (client, args) => client.datasets.versions.get(args.datasetId, args.vid),
  }),
  defineTool({
    name: "create_dataset_version",
    group: "Datasets",
    title: "Freeze a dataset version",
    description:
      "Freezes the dataset's current items as a new immutable version (later edits and deletes do not change it); an empty dataset cannot be frozen.",
    readOnly: false,
    input: { datasetId, description: description.optional() },
    run: (client, { datasetId: id, ...body }) => client.datasets.versions.create(id, defined(body)),
  }),
  defineTool({
    name: "add_dataset_item",
    group: "Datasets",
    title: "Add a dataset item",
    description: "Adds one item (input, optional expected output, metadata and source trace) to a dataset.",
    readOnly: false,
    input: { datasetId, ...item },
    run: (client, { datasetId: id, ...body }) =>
      client.datasets.items.add(id, { ...defined(body), input: body.input }),
  }),
  defineTool({
    name: "add_dataset_items",
    group: "Datasets",
    title: "Add dataset items in batch",
    description:
      "Adds 1-1000 items in one call, in the given order; if any item is invalid none is added (the error names items[i].<field>).",
    readOnly: false,
    input: {
      datasetId,
      items: z
        .array(z.object(item))
        .min(1)
        .max(1000)
        .describe("the items, 1-1000: {input, expectedOutput?, metadata?, sourceTraceId?}"),
    },
    run: (client, args) =>
      client.datasets.items.addBatch(
        args.datasetId,
        args.items.map((entry) => ({ ...defined(entry), input: entry.input })),
      ),
  }),
  defineTool({
    name: "get_dataset_items",
    group: "Datasets",
    title: "List dataset items",
    description:
      "Lists a dataset's items oldest first (items added in one call keep its order): the current ones, or with version those frozen in that version.",
    readOnly: true,
    input: {
      datasetId,
      version: versionRef.optional().describe("a version id (dsv_…) or number: list the items frozen in it"),
      ...page,
    },
    run: (client, { datasetId: id, ...query }) => client.datasets.items.list(id, defined(query)),
  }),
  defineTool({
    name: "delete_dataset_item",
    group: "Datasets",
    title: "Delete a dataset item",
    description: "Removes an item from the dataset's current items; versions that froze it keep it.",
    readOnly: false,
    destructive: true,
    input: { datasetId, itemId },
    run: async (client, args) => {
      await client.datasets.items.delete(args.datasetId, args.itemId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "update_dataset_item_expected_output",
    group: "Datasets",
    title: "Update a dataset item",
    description:
      "Changes an item's expected output (null clears it) and/or its metadata (replaced as a whole); versions keep what they froze.",
    readOnly: false,
    input: {
      datasetId,
      itemId,
      expectedOutput: z
        .unknown()
        .optional()
        .describe("the new expected output (any JSON value; null clears it)"),
      metadata: z.record(z.string(), z.unknown()).optional().describe("the new metadata object"),
    },
    run: (client, { datasetId: id, itemId: item, ...body }) =>
      client.datasets.items.update(id, item, {
        ...(body.expectedOutput === undefined ? {} : { expectedOutput: body.expectedOutput }),
        ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
      }),
  }),
];
