import { describe, expect, it } from "vitest";
import type { CachedOptions } from "../../../src/cache/cache-spec.js";
import { Cached } from "../../../src/cache/cached.capability.js";
import { metadataStore } from "../../../src/metadata/store.js";

const cachedOf = (target: Function, property: string) =>
  metadataStore
    .ownMethod(target.prototype, property)
    ?.capabilities?.find((recorded) => recorded.capability === Cached.capability)?.options as
    | CachedOptions
    | undefined;

describe("@Cached", () => {
  it("records a frozen copy of the options and of the invalidateOn list", () => {
    const match = (input: { site: string }, payload: { site: string }) => input.site === payload.site;
    const invalidateOn: CachedOptions["invalidateOn"] & unknown[] = ["articles.changed"];
    class S {
      @Cached({ ttl: 60_000, invalidateOn, scope: "global" }) list() {}
      @Cached({ ttl: 1_000, invalidateOn: [{ event: "x", match }] }) other() {}
    }
    invalidateOn.push("late");
    const recorded = cachedOf(S, "list");
    expect(recorded).toEqual({ ttl: 60_000, invalidateOn: ["articles.changed"], scope: "global" });
    expect(Object.isFrozen(recorded)).toBe(true);
    expect(Object.isFrozen(recorded?.invalidateOn)).toBe(true);
    expect(cachedOf(S, "other")?.invalidateOn).toEqual([{ event: "x", match }]);
  });

  it("keeps a non-array invalidateOn as given rather than spreading a string into letters", () => {
    class S {
      @Cached({ ttl: 5, invalidateOn: "articles.changed" as unknown as string[] }) list() {}
    }
    expect(cachedOf(S, "list")?.invalidateOn).toBe("articles.changed");
  });
});
