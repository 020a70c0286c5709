import { z } from "zod";
import { AGGREGATE_INPUT, PAGED_TOOL_ANSWERS } from "../builder/aggregate-input.js";
import { FrugalConfigError } from "../errors/config-error.js";
import type { PaginationSpec } from "./pagination-spec.js";

/**
 * The inputs `@Paginated` adds. Tools take numbers and arrays; resource templates take
 * query-string text, so `limit` is coerced there. A `limit` above `maxLimit` is clamped,
 * not refused, as the contract says: a tool's schema advertises `maxLimit` as the maximum
 * (so a client and a model know it) without the validation refusing more. The descriptions
 * are short on purpose: every `tools/list` carries them, once per paginated tool.
 */
export function paginationInputShape(
  spec: PaginationSpec,
  kind: "tool" | "resource",
): Record<string, z.ZodType> {
  // `meta` last: each zod method returns a new schema, which would not carry it.
  // A tool answers `limit: 0` with the total alone (size only).
  const limit = (
    kind === "tool"
      ? z.number().int().min(0).meta({ maximum: spec.maxLimit })
      : z.coerce.number().int().min(1)
  )
    .optional()
    .describe(
      `Page size (default ${spec.limit}${kind === "tool" ? "; 0: the total only" : ""}).${
        // Tells the model how to get the growth: a limit it repeats on every call pins the size.
        spec.adaptive ? " Omit it after the first page to let pages grow." : ""
      }`,
    );
  const shape: Record<string, z.ZodType> = {
    // No description: `cursor` takes the page's `nextCursor`, as its name says (every paged tool's listing carries it).
    cursor: z.string().optional(),
    limit,
  };
  if (spec.stream) {
    const bound = (kind === "tool" ? z.union([z.string(), z.number()]) : z.string()).optional();
    const at = JSON.stringify(spec.stableKey[0]);
    shape.since = bound.describe(
      `Exclusive lower bound of ${at}: ISO 8601 time, epoch ms or sequence number.`,
    );
    shape.until = bound.describe(`Inclusive upper bound of ${at}, as since.`);
    if (kind === "tool") {
      shape.tail = z
        .number()
        .int()
        .min(1)
        .max(spec.maxLimit)
        .optional()
        .describe("The newest N items (to until), oldest first; not with since.");
    }
  }
  if (kind === "tool" && spec.aggregate !== false) shape.aggregate = AGGREGATE_INPUT;
  if (spec.fields && addsFieldsInput(spec, kind)) {
    const [first, ...rest] = spec.fields as [string, ...string[]];
    shape.fields = z
      .array(z.enum([first, ...rest]))
      .min(1)
      .optional()
      .describe(`Default: ${(spec.defaultFields ?? spec.fields).join(", ")}`);
  }
  return shape;
}

/**
 * True when pagination adds a `fields` input (a tool's, under the `fields` option): the
 * schema offers it and the cursor decoder takes it out of the handler's input; elsewhere a
 * `fields` input is the operation's own.
 *
 * @example
 * ```ts
 * addsFieldsInput({ ...spec, fields: ["id", "title"] }, "tool"); // true
 * addsFieldsInput({ ...spec, fields: ["id", "title"] }, "resource"); // false
 * ```
 */
export function addsFieldsInput(spec: PaginationSpec, kind: string): boolean {
  return spec.fields !== undefined && kind === "tool";
}

/** Adds the pagination inputs to an operation's schema, refusing a clash with its own fields. */
export function withPaginationInput(
  where: string,
  schema: z.ZodObject | undefined,
  spec: PaginationSpec,
  kind: "tool" | "resource",
): z.ZodObject {
  const extra = paginationInputShape(spec, kind);
  const base = schema ?? z.strictObject({});
  const clash = Object.keys(extra).find((name) => name in base.shape);
  if (clash) {
    throw new FrugalConfigError(
      where,
      `input field "${clash}" clashes with the input @Paginated adds`,
      clash === "aggregate"
        ? 'rename your "aggregate" field, or pass aggregate: false to @Paginated'
        : `rename your "${clash}" field`,
    );
  }
  return base.extend(extra);
}

/** The advertised result schema of a paginated operation: the envelope around its items. */
export function pageEnvelopeSchema(item: z.ZodObject | undefined, spec: PaginationSpec): z.ZodObject {
  const itemSchema =
    spec.as === "links"
      ? PAGE_LINK_SCHEMA
      : item
        ? spec.fields
          ? item.partial()
          : item
        : z.record(z.string(), z.unknown());
  const envelope = z.object({
    items: z.array(itemSchema),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
    count: z.number().int(),
    // Present when the handler returned `{ items, total }`.
    total: z.number().int().optional(),
    // Present when an item alone was over the token budget and the page skipped it.
    skipped: z
      .array(
        z.object({ position: z.number().int(), tokens: z.number(), budget: z.number(), reason: z.string() }),
      )
      .optional(),
  });
  if (!spec.stream) return envelope;
  const bound = z.union([z.string(), z.number()]).nullable();
  return envelope.extend({
    since: bound,
    until: bound,
    first: bound,
    last: bound,
    nextSince: bound.optional(),
  });
}

/**
 * A paged tool's result schema: the page envelope, or the size-only answer (`limit: 0`),
 * or, unless `aggregate: false`, the aggregate answer.
 */
export function pagedToolOutput(item: z.ZodObject, spec: PaginationSpec): z.ZodType {
  const [aggregate, sizeOnly] = PAGED_TOOL_ANSWERS;
  const page = pageEnvelopeSchema(item, spec);
  return spec.aggregate === false ? z.union([page, sizeOnly]) : z.union([page, aggregate, sizeOnly]);
}

/** A link item of a page answered `as: "links"`. */
const PAGE_LINK_SCHEMA = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
