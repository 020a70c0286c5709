import { describe, expect, it } from "vitest";
import { checkCacheOptions } from "../../../src/cache/check-cache-options.js";
import type { CapabilityTarget, OperationKind } from "../../../src/pipeline/capability.js";

class Service {}
const target = (kind: OperationKind = "tool", decorators: string[] = []): CapabilityTarget => ({
  where: "Service.list",
  kind,
  name: "list",
  serviceClass: Service,
  property: "list",
  fail: (problem) => {
    throw new Error(problem);
  },
  carries: (decorator) => decorators.includes(decorator),
});

describe("checkCacheOptions (@Cached)", () => {
  it("fills the scope by kind (tools per owner, resources shared) and copies invalidateOn", () => {
    const match = () => true;
    const tool = checkCacheOptions({ ttl: 100, invalidateOn: ["a", { event: "b", match }] }, target());
    expect(tool).toEqual({ ttl: 100, scope: "owner", invalidateOn: ["a", { event: "b", match }] });
    expect(Object.isFrozen(tool.invalidateOn)).toBe(true);
    expect(checkCacheOptions({ ttl: 100 }, target("resource")).scope).toBe("global");
  });

  it("refuses a bad ttl, a bad rule and @Cached with @Ephemeral, saying how to fix each", () => {
    expect(() => checkCacheOptions({ ttl: -1 }, target())).toThrow(
      "Service.list: @Cached `ttl` must be a positive, finite number of milliseconds, not -1. Fix: e.g. @Cached({ ttl: 60_000 }).",
    );
    expect(() => checkCacheOptions(undefined, target())).toThrow(/`ttl` is missing/);
    expect(() => checkCacheOptions({ ttl: 1, invalidateOn: "a" }, target())).toThrow(
      '@Cached `invalidateOn` must be an array, not "a"',
    );
    expect(() => checkCacheOptions({ ttl: 1, invalidateOn: [""] }, target())).toThrow(
      "`invalidateOn[0]` is an empty event name",
    );
    expect(() => checkCacheOptions({ ttl: 1, invalidateOn: [{ event: "x" }] }, target())).toThrow(
      '`invalidateOn[0]` has an `event` but no `match`. Fix: add match: (input, payload) => …, or pass the event name alone ("x").',
    );
    expect(() =>
      checkCacheOptions({ ttl: 1, invalidateOn: [{ event: "x", match: () => true, when: 1 }] }, target()),
    ).toThrow("`invalidateOn[0]` has an unknown key `when`");
    expect(() => checkCacheOptions({ ttl: 1 }, target("tool", ["@Ephemeral"]))).toThrow(
      /@Cached cannot be combined with @Ephemeral/,
    );
  });

  it("leaves @Ephemeral on a resource to its own check (it applies to tools only)", () => {
    expect(checkCacheOptions({ ttl: 1 }, target("resource", ["@Ephemeral"])).ttl).toBe(1);
  });
});
