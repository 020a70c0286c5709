import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { HandlerInput, TemplateVariables } from "../../../src/decorators/handler-input.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";

// These are compile-time checks: `npx tsc -p tsconfig.json --noEmit` fails if a type is wrong
// or if a `@ts-expect-error` below stops being an error.

describe("HandlerInput", () => {
  it("is the schema's output type, defaults applied and optional keys really optional", () => {
    type Input = HandlerInput<{ n: z.ZodDefault<z.ZodNumber>; tag: z.ZodOptional<z.ZodString> }, {}>;
    expectTypeOf<Input>().toEqualTypeOf<{ n: number; tag?: string }>();
    const schema = z.object({ site: z.string() });
    expectTypeOf<HandlerInput<typeof schema, {}>>().toEqualTypeOf<{ site: string }>();
  });

  it("is the fallback without a schema, and checks nothing for a schema known only as a record", () => {
    expectTypeOf<HandlerInput<never, Record<string, string>>>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<HandlerInput<Record<string, z.ZodType>, {}>>().toBeAny();
  });
});

describe("TemplateVariables", () => {
  it("makes path variables strings and query variables optional strings", () => {
    expectTypeOf<TemplateVariables<"logs://{app}/{+path}{?since,limit}">>().toEqualTypeOf<{
      app: string;
      path: string;
      since?: string;
      limit?: string;
    }>();
    expectTypeOf<TemplateVariables<"notes://{id*}{&rev}">>().toEqualTypeOf<{ id: string; rev?: string }>();
    expectTypeOf<TemplateVariables<"config://app">>().toEqualTypeOf<{}>();
    expectTypeOf<TemplateVariables<string>>().toBeAny();
  });
});

describe("handler decorators check the method's first parameter", () => {
  it("accept a handler that declares fewer properties, refuse one that types a property differently", () => {
    class Articles {
      @Tool({ input: { site: z.string(), tag: z.string().optional() } })
      list({ site }: { site: string }) {
        return site;
      }
      // @ts-expect-error: the schema's site is a string, not a number
      @Tool({ input: { site: z.string() } })
      wrong({ site }: { site: number }) {
        return site;
      }
      // @ts-expect-error: the template has no `slug` variable
      @Resource("articles://{site}")
      article({ slug }: { slug: string }) {
        return slug;
      }
    }
    // The decorators still record at run time; the compiler is what refused the wrong ones.
    expect(metadataStore.ownMembers(Articles.prototype)).toEqual(new Set(["list", "wrong", "article"]));
  });
});
