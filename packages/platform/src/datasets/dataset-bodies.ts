/**
 * The bodies and limits of the Datasets group (PLATFORM.md §8). The routes validate
 * with these schemas and the service validates again (library calls come without a route).
 */
import { z } from "zod";

/** Items per dataset. */
export const DATASET_MAX_ITEMS = 100_000;
/** Items per batch add. */
export const DATASET_BATCH_MAX_ITEMS = 1_000;
/** `input` + `expectedOutput` + `metadata` of one item, as UTF-8 bytes of their JSON. */
export const DATASET_ITEM_MAX_BYTES = 256 * 1024;
/** A dataset's own `metadata`, as UTF-8 bytes of its JSON. */
export const DATASET_METADATA_MAX_BYTES = 16 * 1024;

const jsonObject = z.record(z.string(), z.unknown());

const datasetMetadata = jsonObject.refine(
  (value) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8") <= DATASET_METADATA_MAX_BYTES,
  { message: `metadata may hold at most ${DATASET_METADATA_MAX_BYTES} bytes of JSON` },
);
const name = z.string().min(1, "name must not be empty").max(200, "name holds at most 200 characters");
const description = z.string().max(4000, "description holds at most 4000 characters").nullable();

export const datasetCreateBody = z.object({
  name,
  description: description.optional(),
  metadata: datasetMetadata.optional(),
});
export type DatasetCreateInput = z.input<typeof datasetCreateBody>;

export const datasetUpdateBody = z.object({
  name: name.optional(),
  description: description.optional(),
  metadata: datasetMetadata.optional(),
});
export type DatasetUpdateInput = z.input<typeof datasetUpdateBody>;

export const datasetListQuery = z.object({ name: z.string().max(200).optional() });

export const datasetVersionBody = z.object({ description: description.optional() });
export type DatasetVersionInput = z.input<typeof datasetVersionBody>;

/** `trc_` and the id's characters; the trace is not looked up (PLATFORM.md §8). */
const SOURCE_TRACE_ID = /^trc_[A-Za-z0-9]{1,64}$/;

export const datasetItemBody = z.object({
  input: z.unknown().refine((value) => value !== undefined && value !== null, {
    message: "input is required and may not be null",
  }),
  expectedOutput: z.unknown().optional(),
  metadata: jsonObject.optional(),
  sourceTraceId: z
    .string()
    .regex(SOURCE_TRACE_ID, "sourceTraceId must be a trace id (trc_…)")
    .nullable()
    .optional(),
});
export type DatasetItemInput = z.input<typeof datasetItemBody>;

export const datasetItemsBatchBody = z.object({
  items: z
    .array(datasetItemBody)
    .min(1, "items must hold at least one item")
    .max(DATASET_BATCH_MAX_ITEMS, `items may hold at most ${DATASET_BATCH_MAX_ITEMS} items per call`),
});
export type DatasetItemsBatchInput = z.input<typeof datasetItemsBatchBody>;

export const datasetItemUpdateBody = z
  .object({ expectedOutput: z.unknown().optional(), metadata: jsonObject.optional() })
  .refine((value) => value.expectedOutput !== undefined || value.metadata !== undefined, {
    message: "give at least one of expectedOutput, metadata",
  });
export type DatasetItemUpdateInput = z.input<typeof datasetItemUpdateBody>;

export const datasetItemsQuery = z.object({ version: z.string().max(64).optional() });
