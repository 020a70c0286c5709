import { z } from "zod";
import { FrugalConfigError } from "../errors/config-error.js";
import type { PaginatedOptions, StreamChunkOptions } from "../metadata/definitions.js";
import type { PaginationSpec } from "../metadata/specs.js";

/** Fills defaults and checks the options, naming `where` in any error. */
export function resolvePaginationSpec(
  where: string,
  stableKey: readonly string[],
  options: PaginatedOptions,
): PaginationSpec {
  const limit = options.limit ?? 20;
  const maxLimit = options.maxLimit ?? Math.max(100, limit);
  const fail = (problem: string, fix: string) => new FrugalConfigError(where, `@Paginated ${problem}`, fix);
  if (stableKey.length === 0 || stableKey.some((f) => typeof f !== "string" || f === "")) {
    throw fail(
      "needs a stable key of one field or more",
      'pass a unique field, e.g. @Paginated("id") or @Paginated(["updatedAt", "slug"])',
    );
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || !Number.isSafeInteger(maxLimit) || maxLimit < limit) {
    throw fail(
      `limits are invalid (limit ${limit}, maxLimit ${maxLimit})`,
      "use whole numbers with 1 <= limit <= maxLimit",
    );
  }
  if (options.order !== undefined && options.order !== "asc" && options.order !== "desc") {
    throw fail(`order "${options.order}" is invalid`, 'use "asc" or "desc"');
  }
  const fields = options.fields ? [...options.fields] : undefined;
  if (fields?.length === 0)
    throw fail("`fields` is empty", "list the fields a client may select, or drop the option");
  const defaultFields = options.defaultFields ? [...options.defaultFields] : undefined;
  if (defaultFields && !fields) throw fail("has `defaultFields` without `fields`", "add `fields`");
  const unknown = defaultFields?.find((f) => !fields?.includes(f));
  if (unknown)
    throw fail(`defaultFields names "${unknown}", which is not in \`fields\``, "add it to `fields`");
  const stream = options.stream ? { ...options.stream } : undefined;
  for (const [name, value] of Object.entries(stream ?? {})) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) {
      throw fail(
        `stream.${name} must be a positive whole number, not ${value}`,
        `e.g. stream: { ${name}: 60_000 }`,
      );
    }
  }
  return {
    stableKey: [...stableKey],
    limit,
    maxLimit,
    order: options.order ?? "asc",
    fields,
    defaultFields,
    stream,
  };
}

/**
 * The inputs `@Paginated` adds. Tools take numbers and arrays; resource templates take
 * query-string text, so `limit` is coerced there. A `limit` above `maxLimit` is clamped,
 * not refused, as the contract says.
 */
export function paginationInputShape(
  spec: PaginationSpec,
  kind: "tool" | "resource",
): Record<string, z.ZodType> {
  const limit = (kind === "tool" ? z.number() : z.coerce.number())
    .int()
    .min(1)
    .optional()
    .describe(`Page size (default ${spec.limit}, at most ${spec.maxLimit}; larger values are clamped).`);
  const shape: Record<string, z.ZodType> = {
    cursor: z
      .string()
      .optional()
      .describe("Opaque cursor from the previous page's nextCursor; omit it for the first page."),
    limit,
  };
  if (spec.stream) {
    const bound = (what: string) =>
      (kind === "tool" ? z.union([z.string(), z.number()]) : z.string())
        .optional()
        .describe(
          `${what} of "${spec.stableKey[0]}": an ISO 8601 time, epoch milliseconds or a sequence number.`,
        );
    shape.since = bound("Exclusive lower bound");
    shape.until = bound("Inclusive upper bound");
  }
  if (spec.fields && kind === "tool") {
    const [first, ...rest] = spec.fields as [string, ...string[]];
    shape.fields = z
      .array(z.enum([first, ...rest]))
      .min(1)
      .optional()
      .describe(`Fields to return (default: ${(spec.defaultFields ?? spec.fields).join(", ")}).`);
  }
  return shape;
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
      `rename your "${clash}" field`,
    );
  }
  return base.extend(extra);
}

/** The advertised result schema of a paginated operation: the envelope around its items. */
export function pageEnvelopeSchema(item: z.ZodObject | undefined, spec: PaginationSpec): z.ZodObject {
  const itemSchema = item ? (spec.fields ? item.partial() : item) : z.record(z.string(), z.unknown());
  const envelope = z.object({
    items: z.array(itemSchema),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
    count: z.number().int(),
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
