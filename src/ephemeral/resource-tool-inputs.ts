import { z } from "zod";
import { MAX_URI_LENGTH } from "../uri/uri-limits.js";
import { MAX_BYTE_SLICE } from "./resource-slices.js";

/** A URI to read or search: at most `MAX_URI_LENGTH` characters, refused by name beyond. */
const uriInput = z
  .string()
  .max(MAX_URI_LENGTH, `a resource URI may be at most ${MAX_URI_LENGTH} characters; shorten it`)
  .describe("e.g. an ephemeral:// link");

/** Field names: dotted paths, checked by the query (which names a bad one). */
const fieldList = z.array(z.string());
const fieldNames = z.union([z.string(), fieldList]);

/** Inputs of `read_resource`. */
export const readResourceInput = {
  uri: uriInput,
  offset: z.number().int().min(0).optional().describe("First item, line or byte (character with index)."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_BYTE_SLICE)
    .optional()
    .describe("Most items, lines, bytes or characters (default: what fits)"),
  index: z.number().int().min(0).optional().describe("Item or line to read characters of."),
  path: z.string().max(1000).optional().describe("JSON Pointer of a string field, e.g. /body."),
};

/** Inputs of `search_resource`. */
export const searchResourceInput = {
  uri: uriInput,
  pattern: z.string().min(1).max(1000).describe("Text to find; an RE2 regular expression if regex."),
  regex: z.boolean().default(false),
  ignoreCase: z.boolean().default(false),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    // One call scans a bounded part: a model that stops at a call without matches misses the rest.
    .describe("nextOffset of the previous call: while hasMore, search on from it, even after no match"),
  limit: z.number().int().min(1).max(500).default(100).describe("Most matches (fewer past the token budget)"),
  count: z.boolean().optional().describe("Answer only { count }."),
  fields: fieldList.optional().describe("Fields kept of each item."),
  context: z.number().int().min(0).max(2000).optional().describe("Characters each side (default 80)."),
  whole: z.boolean().optional().describe("Whole items or lines instead."),
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * An object taken as the client sent it: `where` and `orderBy` are checked by the query
 * itself, which names the bad part (a `__proto__` key included: a zod record would drop
 * it silently and run a different query).
 */
const objectInput = () =>
  z.custom<Record<string, unknown>>(isRecord, { message: "must be an object" }).meta({ type: "object" });

/** Inputs of `query_resource`. Short on purpose: every tools/list carries them. */
export const queryResourceInput = {
  uri: uriInput,
  where: objectInput()
    .optional()
    .describe(
      'MongoDB filter on dotted fields, e.g. {"n":{"$gte":2}}. $eq $ne $gt $gte $lt $lte $in $nin $exists $regex ($options "i") $and $or $not',
    ),
  // No description: `select`, as in SQL, names the fields kept.
  select: fieldList.optional(),
  groupBy: fieldNames.optional().describe("Count items per value (array fields: per element)."),
  aggregate: z
    .strictObject({
      count: z.boolean().optional(),
      groupBy: fieldNames.optional(),
      sum: z.string().optional(),
      min: z.string().optional(),
      max: z.string().optional(),
      avg: z.string().optional(),
      top: z.number().int().min(1).max(1000).optional().describe("Keep the N largest groups."),
    })
    .optional()
    .describe("Groups instead of items"),
  orderBy: objectInput().optional().describe('e.g. {"updatedAt":-1}'),
  limit: z.number().int().min(1).max(1000).optional(),
  cursor: z.string().optional(),
};
