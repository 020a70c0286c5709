import { z } from "zod";
import { MAX_URI_LENGTH } from "../uri/uri-limits.js";
import { MAX_BYTE_SLICE } from "./resource-slices.js";

/** A URI to read or search: at most `MAX_URI_LENGTH` characters, refused by name beyond. */
const uriInput = z
  .string()
  .max(MAX_URI_LENGTH, `a resource URI may be at most ${MAX_URI_LENGTH} characters; shorten it`)
  .describe(
    "The URI of any resource you may read (an ephemeral:// link, a static resource, a template instance).",
  );

/** Inputs of `read_resource`. */
export const readResourceInput = {
  uri: uriInput,
  offset: z.number().int().min(0).optional().describe("First item, line or byte (default 0)."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_BYTE_SLICE)
    .optional()
    .describe("Most items, lines or bytes (default: as many as the token budget allows)."),
};

/** Inputs of `search_resource`. */
export const searchResourceInput = {
  uri: uriInput,
  pattern: z.string().min(1).max(1000).describe("Text to find (literal unless regex is true)."),
  regex: z.boolean().default(false).describe("Treat the pattern as an RE2 regular expression."),
  ignoreCase: z.boolean().default(false),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "Item or line to start from: the nextOffset of a previous search. One call searches a bounded part of a large resource; while hasMore is true, search again from nextOffset, even when no match was found yet.",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .describe("Most matches to return (default 100; fewer when the token budget is reached)."),
};
