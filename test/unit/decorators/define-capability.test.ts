import { describe, expect, it } from "vitest";
import { defineCapability } from "../../../src/decorators/define-capability.js";
import { metadataStore } from "../../../src/metadata/store.js";

const RateLimit = defineCapability({
  name: "rateLimit",
  decorator: "@RateLimit",
  options: (limit: number, options: { per?: "second" | "minute" } = {}) => ({
    limit,
    per: options.per ?? "minute",
  }),
  resolve: (options) => options,
  stage: { after: "interceptors", create: () => async (_call, next) => next() },
});

const recordedOn = (target: Function, property: string) =>
  metadataStore.ownMethod(target.prototype, property)?.capabilities ?? [];

describe("defineCapability", () => {
  it("makes a decorator that records its options, built from its arguments, with the capability", () => {
    class Search {
      @RateLimit(5, { per: "second" }) query() {}
    }
    const [recorded] = recordedOn(Search, "query");
    expect(recorded?.capability).toBe(RateLimit.capability);
    expect(recorded?.options).toEqual({ limit: 5, per: "second" });
    expect(Object.isFrozen(recorded?.options)).toBe(true);
  });

  it("exposes a frozen capability without the options builder", () => {
    expect(RateLimit.capability).toMatchObject({ name: "rateLimit", decorator: "@RateLimit" });
    expect(RateLimit.capability.stage?.after).toBe("interceptors");
    expect("options" in RateLimit.capability).toBe(false);
    expect(Object.isFrozen(RateLimit.capability)).toBe(true);
  });

  it("keeps the upper decorator's options when the same capability is applied twice", () => {
    class Search {
      @RateLimit(1)
      @RateLimit(9)
      query() {}
    }
    const recorded = recordedOn(Search, "query");
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.options).toEqual({ limit: 1, per: "minute" });
  });

  it("records on a field too, as a field, for start-up to refuse by name", () => {
    class Search {
      @RateLimit(1) results: unknown;
    }
    expect(metadataStore.ownMethod(Search.prototype, "results")?.memberKind).toBe("field");
  });
});
