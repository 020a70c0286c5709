import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Project, type ProjectionSpec } from "../../../src/pagination/project.capability.js";
import type {
  CapabilityCall,
  CapabilityServices,
  CapabilityTarget,
} from "../../../src/pipeline/capability.js";
import { toolError } from "../../../src/results/tool-error.js";

const { capability } = Project;

/** The start-up target of `Articles.get`, as the builder gives it: `fail` throws what it says. */
function target(decorators: string[] = []): CapabilityTarget {
  return {
    where: "Articles.get",
    kind: "tool",
    name: "get",
    serviceClass: class Articles {},
    property: "get",
    fail(problem: string, fix: string): never {
      throw new Error(`Articles.get: @Project ${problem}; ${fix}`);
    },
    carries: (decorator) => decorators.includes(decorator),
  };
}
const resolve = (fields: unknown, options: unknown = {}, on = target()) =>
  capability.resolve?.({ fields, options } as never, on) as ProjectionSpec;

describe("@Project at start-up", () => {
  it("resolves the fields, with all of them as the default, frozen", () => {
    const spec = resolve(["id", "title", "body"]);
    expect(spec).toEqual({ fields: ["id", "title", "body"], defaultFields: ["id", "title", "body"] });
    expect(Object.isFrozen(spec.fields)).toBe(true);
    expect(resolve(["id", "title"], { defaultFields: ["id"] }).defaultFields).toEqual(["id"]);
  });

  it("refuses declarations it cannot serve, saying how to fix them", () => {
    expect(() => resolve([])).toThrow(/needs at least one field; e\.g\. @Project\(\["id", "title"\]\)/);
    expect(() => resolve("id")).toThrow(/fields must be an array of field names, not "id"/);
    expect(() => resolve(["id", ""])).toThrow(/must hold non-empty field names/);
    expect(() => resolve(["id"], { defaultFields: ["title"] })).toThrow(
      /`defaultFields` names "title", which is not one of its fields; add "title" to the fields/,
    );
    expect(() => resolve(["id"], { defaults: ["id"] })).toThrow(/defaults/);
    expect(() => resolve(["id"], {}, target(["@Paginated"]))).toThrow(/cannot be combined with @Paginated/);
  });

  it("adds an optional `fields` input of the declared names, and refuses a tool that has one", () => {
    const spec = resolve(["id", "title"]);
    const input = capability.input?.(spec, z.object({ id: z.string() }), target()) as z.ZodObject;
    expect(input.safeParse({ id: "a", fields: ["title"] }).success).toBe(true);
    expect(input.safeParse({ id: "a" }).success).toBe(true);
    expect(input.safeParse({ id: "a", fields: ["secret"] }).success).toBe(false);
    expect(input.safeParse({ id: "a", fields: [] }).success).toBe(false);
    expect(() => capability.input?.(spec, z.object({ fields: z.string() }), target())).toThrow(
      /already has one; rename the tool's own `fields` input/,
    );
  });
});

describe("@Project's stage", () => {
  const spec = resolve(["id", "title", "body"], { defaultFields: ["id", "title"] });
  const services = { resolve: () => undefined, logger: console } as unknown as CapabilityServices;
  const stage = capability.stage?.create(spec, target(), services);
  const run = (result: unknown, fields?: string[]) =>
    stage?.({ input: fields ? { fields } : {} } as CapabilityCall, async () => result);
  const article = { id: 1, title: "t", body: "long", secret: "x" };

  it("keeps the asked fields, or the default ones, of an object, an array, or an object's items", async () => {
    expect(await run(article)).toEqual({ id: 1, title: "t" });
    expect(await run(article, ["body"])).toEqual({ body: "long" });
    expect(await run([article, article], ["id"])).toEqual([{ id: 1 }, { id: 1 }]);
    expect(await run({ items: [article], total: 1 }, ["title"])).toEqual({
      items: [{ title: "t" }],
      total: 1,
    });
  });

  it("leaves a tool error as it is", async () => {
    const failed = toolError("not found");
    expect(await run(failed)).toBe(failed);
  });
});
