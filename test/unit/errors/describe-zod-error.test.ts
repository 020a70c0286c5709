import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeZodError } from "../../../src/errors/describe-zod-error.js";

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected the value to be refused");
  return parsed.error;
}

describe("describeZodError", () => {
  it("writes one clause per offending field, with its path, without zod's 'Invalid input' prefix", () => {
    const schema = z.object({ site: z.string(), limit: z.number().max(50) });
    const text = describeZodError(errorOf(schema, { site: 3, limit: 80 }));
    expect(text).toContain("site: expected string, received number");
    expect(text).toMatch(/limit: too big: expected number to be <=50/i);
    expect(text).not.toContain("Invalid input");
    expect(text.split("; ")).toHaveLength(2);
  });

  it("says a required field is missing rather than 'received undefined'", () => {
    const text = describeZodError(errorOf(z.object({ rows: z.array(z.string()) }), {}));
    expect(text).toBe("rows: missing (expected array)");
  });

  it("joins nested paths with dots and names the whole arguments when the path is empty", () => {
    const nested = describeZodError(
      errorOf(z.object({ a: z.object({ b: z.array(z.number()) }) }), { a: { b: [1, "x"] } }),
    );
    expect(nested).toMatch(/^a\.b\.1: expected number/);
    expect(describeZodError(errorOf(z.object({}), 5))).toMatch(/^\(arguments\): expected object/);
  });
});
