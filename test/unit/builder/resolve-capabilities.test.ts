import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveCapabilities } from "../../../src/builder/resolve-capabilities.js";
import { defineCapability } from "../../../src/decorators/define-capability.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import type { MethodMetadata } from "../../../src/metadata/definitions.js";
import { metadataStore } from "../../../src/metadata/store.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import type { CapabilityTarget } from "../../../src/pipeline/capability.js";

const targets: CapabilityTarget[] = [];
const RateLimit = defineCapability({
  name: "rateLimit",
  decorator: "@RateLimit",
  options: (limit: number) => ({ limit }),
  resolve: (options, target) => {
    targets.push(target);
    return options.limit >= 1
      ? { ...options }
      : target.fail(`limit must be at least 1, not ${options.limit}`, "e.g. @RateLimit(5)");
  },
  input: (_spec, input) => (input ?? z.object({})).extend({ token: z.string().optional() }),
});
const Audit = defineCapability({
  name: "audit",
  decorator: "@Audit",
  on: ["tool"],
  options: (label: string) => ({ label }),
  input: (_spec, input) => (input ?? z.object({})).extend({ reason: z.string() }),
  output: (_spec, output) => output.partial(),
});

const owner = (kind: "tool" | "resource" | "prompt" = "tool") => ({
  where: "Search.query",
  kind,
  name: "query",
  serviceClass: Object,
  property: "query",
});
function metadataOf(target: Function, property: string): MethodMetadata {
  const metadata = metadataStore.ownMethod(target.prototype, property);
  if (!metadata) throw new Error("no metadata");
  return metadata;
}

describe("resolveCapabilities", () => {
  it("resolves each recorded capability into a frozen spec, keyed by the capability", () => {
    class Search {
      @Tool() @RateLimit(5) query() {}
    }
    const { specs } = resolveCapabilities(owner(), metadataOf(Search, "query"));
    expect(specs.get(RateLimit.capability)).toEqual({ limit: 5 });
    expect(Object.isFrozen(specs.get(RateLimit.capability))).toBe(true);
  });

  it("keeps the recorded options as the spec when the capability has no resolve", () => {
    class Search {
      @Tool() @Audit("search") query() {}
    }
    expect(resolveCapabilities(owner(), metadataOf(Search, "query")).specs.get(Audit.capability)).toEqual({
      label: "search",
    });
  });

  it("fails start-up through target.fail, naming the method and the decorator", () => {
    class Search {
      @Tool() @RateLimit(0) query() {}
    }
    expect(() => resolveCapabilities(owner(), metadataOf(Search, "query"))).toThrow(
      new FrugalConfigError(
        "Search.query",
        "@RateLimit limit must be at least 1, not 0",
        "e.g. @RateLimit(5)",
      ),
    );
  });

  it("refuses a capability on an operation kind it does not take", () => {
    class Search {
      @Audit("x") query() {}
    }
    expect(() => resolveCapabilities(owner("resource"), metadataOf(Search, "query"))).toThrow(
      "Search.query: @Audit applies to tools only. Fix: remove @Audit, or make this method a @Tool.",
    );
  });

  it("tells a capability which other decorators the method carries", () => {
    class Search {
      @Tool() @Paginated("id") @RateLimit(1) query() {}
    }
    targets.length = 0;
    resolveCapabilities(owner(), metadataOf(Search, "query"));
    expect(targets[0]?.carries("@Paginated")).toBe(true);
    expect(targets[0]?.carries("@Cached")).toBe(false);
    expect(targets[0]).toMatchObject({ where: "Search.query", kind: "tool", name: "query" });
  });

  it("adds every capability's input and output in the order of their names, whatever the decorator order", () => {
    class Search {
      // Decorators apply bottom-up: @RateLimit is recorded first, yet "audit" sorts first.
      @Tool() @Audit("a") @RateLimit(1) query() {}
    }
    const resolved = resolveCapabilities(owner(), metadataOf(Search, "query"));
    expect([...resolved.specs.keys()].map((capability) => capability.name)).toEqual(["audit", "rateLimit"]);
    const input = resolved.input(z.object({ q: z.string() }));
    expect(Object.keys(input?.shape ?? {})).toEqual(["q", "reason", "token"]);
    const output = resolved.output(z.object({ total: z.number() }));
    expect(output.safeParse({}).success).toBe(true);
  });

  it("wraps a tool's declared output in the envelope of the first capability (by name) that has one", () => {
    const wrap = (name: string) =>
      defineCapability({
        name,
        decorator: `@${name}`,
        options: () => ({}),
        envelope: (_spec, item) => z.object({ [name]: z.array(item) }),
      });
    const [Pages, Batches] = [wrap("pages"), wrap("batches")];
    class Search {
      @Tool() @Pages() @Batches() query() {}
      @Tool() @Audit("a") plain() {}
    }
    const resolved = resolveCapabilities(owner(), metadataOf(Search, "query"));
    const enveloped = resolved.envelope(z.object({ n: z.number() }));
    expect(enveloped.parse({ batches: [{ n: 1 }] })).toEqual({ batches: [{ n: 1 }] });
    const own = z.object({ n: z.number() });
    expect(resolveCapabilities(owner(), metadataOf(Search, "plain")).envelope(own)).toBe(own);
  });

  it("lets capabilities decide a tool's text format from @Tool's own, in the order of their names", () => {
    const Json = defineCapability({
      name: "json",
      decorator: "@Json",
      options: () => ({}),
      textFormat: (_spec, own) => own ?? "json",
    });
    class Search {
      @Tool() @Json() query() {}
      @Tool() plain() {}
    }
    expect(resolveCapabilities(owner(), metadataOf(Search, "query")).textFormat(undefined)).toBe("json");
    expect(resolveCapabilities(owner(), metadataOf(Search, "query")).textFormat("auto")).toBe("auto");
    expect(resolveCapabilities(owner(), metadataOf(Search, "plain")).textFormat(undefined)).toBeUndefined();
  });

  it("leaves input and output alone without capabilities", () => {
    const resolved = resolveCapabilities(owner(), { memberKind: "method" });
    expect(resolved.specs.size).toBe(0);
    expect(resolved.input(undefined)).toBeUndefined();
    const own = z.object({ a: z.string() });
    expect(resolved.output(own)).toBe(own);
  });
});

describe("resolveCapabilities: classes, app defaults and absent specs", () => {
  const Quota = defineCapability({
    name: "quota",
    decorator: "@Quota",
    classes: true,
    options: (calls: number) => ({ calls }),
    resolve: (options, target) =>
      options.calls >= 1
        ? { calls: options.calls, where: target.where }
        : target.fail("needs calls", "@Quota(5)"),
    absent: (target) => (target.modelVisible === false ? undefined : { calls: Infinity, where: "absent" }),
    meta: (spec) => ({ "example/quota": spec.calls }),
    result: (_spec, schema) => z.union([schema, z.object({ queued: z.string() })]),
  });
  const quotaOf = (
    metadata: MethodMetadata,
    sources: Parameters<typeof resolveCapabilities>[2] = {},
    serviceClass: Function = Object,
  ) => resolveCapabilities({ ...owner(), serviceClass }, metadata, sources).specs.get(Quota.capability);

  it("takes the method's options, else the class's, else the app's, else the absent spec", () => {
    @Quota(9)
    class Search {
      @Tool() @Quota(3) own() {}
      @Tool() plain() {}
    }
    const classRecords = metadataStore.service(Search)?.capabilities;
    const defaults = new Map([[Quota.capability as never, { calls: 100 }]]);
    expect(quotaOf(metadataOf(Search, "own"), { classRecords, defaults })).toEqual({
      calls: 3,
      where: "Search.query",
    });
    expect(quotaOf(metadataOf(Search, "plain"), { classRecords, defaults }, Search)).toEqual({
      calls: 9,
      where: "Search",
    });
    expect(quotaOf(metadataOf(Search, "plain"), { defaults })).toEqual({ calls: 100, where: "Search.query" });
    expect(quotaOf(metadataOf(Search, "plain"), { registered: [Quota.capability as never] })).toEqual({
      calls: Infinity,
      where: "absent",
    });
    // Neither recorded nor registered: off.
    expect(quotaOf(metadataOf(Search, "plain"))).toBeUndefined();
  });

  it("checks the class's options even where the method overrides them, naming the class", () => {
    @Quota(0)
    class Search {
      @Tool() @Quota(3) own() {}
    }
    expect(() =>
      resolveCapabilities({ ...owner(), serviceClass: Search }, metadataOf(Search, "own"), {
        classRecords: metadataStore.service(Search)?.capabilities,
      }),
    ).toThrow("Search: @Quota needs calls");
  });

  it("refuses on a class a capability that does not take classes", () => {
    const classRecords = [{ capability: RateLimit.capability, options: { limit: 5 } }];
    class Search {
      @Tool() query() {}
    }
    expect(() => resolveCapabilities(owner(), metadataOf(Search, "query"), { classRecords })).toThrow(
      "Object: @RateLimit applies to methods only",
    );
  });

  it("leaves a capability off where `resolve` or `absent` answers undefined, and gathers meta and result", () => {
    class Search {
      @Tool() @Quota(2) query() {}
    }
    const hidden = resolveCapabilities({ ...owner(), modelVisible: false }, metadataOf(Search, "query"), {
      registered: [Quota.capability as never],
    });
    expect(hidden.specs.get(Quota.capability)).toEqual({ calls: 2, where: "Search.query" });
    const none = resolveCapabilities(
      { ...owner(), modelVisible: false },
      { memberKind: "method" },
      {
        registered: [Quota.capability as never],
      },
    );
    expect(none.specs.has(Quota.capability)).toBe(false);
    const resolved = resolveCapabilities(owner(), metadataOf(Search, "query"));
    expect(resolved.meta()).toEqual({ "example/quota": 2 });
    expect(resolved.result(z.object({ a: z.string() })).safeParse({ queued: "job-1" }).success).toBe(true);
  });
});
