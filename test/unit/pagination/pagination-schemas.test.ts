import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toJsonSchema } from "../../../src/builder/input-schema.js";
import { resolvePaginationSpec } from "../../../src/pagination/check-pagination-options.js";
import { paginationInputShape } from "../../../src/pagination/pagination-schemas.js";

const spec = (options: Parameters<typeof resolvePaginationSpec>[2]) =>
  resolvePaginationSpec("T.m", ["id"], options);

describe("paginationInputShape", () => {
  it("advertises maxLimit as the limit's maximum, yet accepts a larger limit (it is clamped, not refused)", () => {
    const shape = z.strictObject(paginationInputShape(spec({ limit: 10, maxLimit: 40 }), "tool"));
    expect(toJsonSchema(shape, "input").properties).toMatchObject({
      limit: {
        type: "integer",
        minimum: 0,
        maximum: 40,
        description: "Page size (default 10; 0: the total only).",
      },
      cursor: { type: "string" },
    });
    // `cursor` takes the page's `nextCursor`, as its name says: no description to pay for.
    expect(toJsonSchema(shape, "input").properties).not.toHaveProperty("cursor.description");
    expect(shape.safeParse({ limit: 1_000 }).success).toBe(true);
    // 0 asks for the total alone (size only); below it is refused.
    expect(shape.safeParse({ limit: 0 }).success).toBe(true);
    expect(shape.safeParse({ limit: -1 }).success).toBe(false);
  });

  it("tells the model to leave the limit out to let adaptive pages grow", () => {
    const shape = z.strictObject(
      paginationInputShape(spec({ limit: 10, maxLimit: 40, adaptive: true }), "tool"),
    );
    expect(toJsonSchema(shape, "input").properties).toMatchObject({
      limit: {
        description:
          "Page size (default 10; 0: the total only). Omit it after the first page to let pages grow.",
      },
    });
  });

  it("describes a stream's bounds by its stable key, once each", () => {
    const shape = z.strictObject(paginationInputShape(spec({ stream: { window: 60_000 } }), "tool"));
    expect(toJsonSchema(shape, "input").properties).toMatchObject({
      since: {
        type: ["string", "number"],
        description: 'Exclusive lower bound of "id": ISO 8601 time, epoch ms or sequence number.',
      },
      until: { description: 'Inclusive upper bound of "id", as since.' },
    });
  });

  it("coerces a resource template's limit from query text", () => {
    const shape = z.object(paginationInputShape(spec({ limit: 10, maxLimit: 40 }), "resource"));
    expect(shape.parse({ limit: "25" })).toEqual({ limit: 25 });
  });
});
