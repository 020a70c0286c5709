import { describe, expect, it } from "vitest";
import { cacheKey, namespaceOfKey } from "../../../src/cache/cache-key.js";
import { type Invocation, newInvocation } from "../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../src/pipeline/operation.js";
import { MAX_TOKENS_META, SLICED_READ } from "../../../src/pipeline/token-limit.js";
import type { ToolContext } from "../../../src/pipeline/tool-context.js";

const definition = { kind: "tool", where: "Search.run" } as unknown as OperationDefinition;

/** An invocation whose decoded input, identity and request meta are given. */
function call(
  input: unknown,
  identity: unknown[] = [],
  meta: Record<string | symbol, unknown> = {},
): Invocation {
  const ctx = { owner: "session:a", meta, signal: new AbortController().signal } as unknown as ToolContext;
  const invocation = newInvocation(definition, {}, undefined, () => ctx);
  Object.assign(invocation, { input, identity });
  return invocation;
}

describe("cacheKey", () => {
  it("is the namespace and a digest that key order does not change", () => {
    const key = cacheKey("Search.run", call({ q: "x", limit: 5 }), null);
    expect(key).toMatch(/^Search\.run:[A-Za-z0-9_-]{43}$/);
    expect(cacheKey("Search.run", call({ limit: 5, q: "x" }), null)).toBe(key);
  });

  it("changes with the input, the identity, the owner and the namespace", () => {
    const key = cacheKey("Search.run", call({ q: "x" }, ["after:1"]), null);
    expect(cacheKey("Search.run", call({ q: "y" }, ["after:1"]), null)).not.toBe(key);
    expect(cacheKey("Search.run", call({ q: "x" }, ["after:2"]), null)).not.toBe(key);
    expect(cacheKey("Search.run", call({ q: "x" }, ["after:1"]), "session:a")).not.toBe(key);
    expect(cacheKey("Other.run", call({ q: "x" }, ["after:1"]), null)).not.toBe(key);
  });

  it("keeps a call with a lowered token budget, and a sliced read, apart from normal calls", () => {
    const normal = cacheKey("Search.run", call({ q: "x" }), null);
    const lowered = cacheKey("Search.run", call({ q: "x" }, [], { [MAX_TOKENS_META]: 100 }), null);
    const sliced = cacheKey("Search.run", call({ q: "x" }, [], { [SLICED_READ]: true }), null);
    expect(new Set([normal, lowered, sliced]).size).toBe(3);
    expect(cacheKey("Search.run", call({ q: "x" }, [], { [MAX_TOKENS_META]: 200 }), null)).not.toBe(lowered);
    // An unusable budget is ignored, as the budget stage ignores it.
    expect(cacheKey("Search.run", call({ q: "x" }, [], { [MAX_TOKENS_META]: -3 }), null)).toBe(normal);
  });
});

describe("namespaceOfKey", () => {
  it("gives back the namespace of a key, colons in it included", () => {
    expect(namespaceOfKey(cacheKey("Search.run", call({}), null))).toBe("Search.run");
    expect(namespaceOfKey(cacheKey("a:b.c", call({}), null))).toBe("a:b.c");
    expect(namespaceOfKey("bare")).toBe("bare");
  });
});
