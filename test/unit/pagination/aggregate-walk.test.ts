import { describe, expect, it } from "vitest";
import { aggregateAnswer } from "../../../src/pagination/aggregate-walk.js";
import type { AggregateRequest, PageContext } from "../../../src/pagination/page-context.js";
import type { KeySpec } from "../../../src/pagination/stable-key.js";
import { toolTextOf } from "../../../src/results/tool-text.js";
import { keysetPage, specOf, walkHarness } from "./walk-harness.js";

const byId: KeySpec = { fields: ["id"], order: "asc" };
const ITEMS = Array.from({ length: 24 }, (_, i) => ({ id: i + 1, tags: i % 2 ? ["a", "b"] : ["a"], n: i }));
const limits = { maxItems: 1_000, maxMs: 10_000, maxGroups: 1_000 };

async function answer(
  aggregate: AggregateRequest,
  handler: (page: PageContext) => unknown = (page) => keysetPage(ITEMS, page),
  spec = specOf(),
) {
  const harness = walkHarness(handler, { aggregate });
  const result = (await aggregateAnswer(
    harness.invocation,
    harness.next,
    spec,
    byId,
    undefined,
    limits,
  )) as Record<string, unknown>;
  return { result, text: toolTextOf(result), calls: harness.calls.length };
}

describe("aggregateAnswer", () => {
  it("walks the pages and counts an array field once per element, with a table as its text", async () => {
    const { result, text, calls } = await answer({ groupBy: "tags", sum: "n" });
    expect(result).toEqual({
      groups: [
        { key: { tags: "a" }, count: 24, sum: 276 },
        { key: { tags: "b" }, count: 12, sum: 144 },
      ],
      total: 24,
      scanned: 24,
    });
    expect(text).toBe("tags\tcount\tsum\na\t24\t276\nb\t12\t144\n\ntotal=24");
    expect(calls).toBe(3);
  });

  it("takes a handler's own groups (push-down), ordered and cut as its own would be", async () => {
    const pushed = () => ({
      groups: [
        { key: { tags: "b" }, count: 12 },
        { key: { tags: "a" }, count: 24 },
      ],
      total: 24,
    });
    const { result, calls } = await answer({ groupBy: "tags", top: 1 }, pushed);
    expect(result).toEqual({ groups: [{ key: { tags: "a" }, count: 24 }], total: 24, scanned: 24 });
    expect(calls).toBe(1);
  });

  it("refuses a field outside `fields`, and pushed-down groups that are not groups", async () => {
    const spec = specOf({ fields: ["id", "tags"] });
    const { result } = await answer({ groupBy: "owner" }, undefined, spec);
    expect(result.isError).toBe(true);
    await expect(answer({ count: true }, () => ({ groups: [{ count: 1 }], total: 1 }))).rejects.toThrow(
      /Issues.list answered ctx.aggregate with \{ groups, total \} that is not valid/,
    );
  });

  it("says which inputs narrow a scan a bound stopped", async () => {
    const harness = walkHarness((page) => keysetPage(ITEMS, page), { aggregate: { count: true } });
    const small = { ...limits, maxItems: 5 };
    const result = (await aggregateAnswer(
      harness.invocation,
      harness.next,
      specOf(),
      byId,
      undefined,
      small,
    )) as Record<string, unknown>;
    expect(result).toMatchObject({ total: 5, scanned: 5, partial: true });
    expect(result.hint).toMatch(/at 5 items \(aggregate.maxScanItems\).*Narrow it with `state`\./);
  });

  it("hints at too many groups only when the scan was whole, and refuses a field no item has", async () => {
    const run = async (maxItems: number, aggregate: AggregateRequest) => {
      const harness = walkHarness((page) => keysetPage(ITEMS, page), { aggregate });
      return (await aggregateAnswer(harness.invocation, harness.next, specOf(), byId, undefined, {
        ...limits,
        maxItems,
        maxGroups: 2,
      })) as Record<string, unknown>;
    };
    const whole = await run(1_000, { groupBy: "n" });
    expect(whole).toMatchObject({ total: 24, partial: true });
    expect(whole.hint).toBe(
      "More than 2 groups (aggregate.maxGroups): only the largest are kept, and their counts may be low.",
    );
    // A bound that stopped the scan is the hint, even with too many groups.
    const stopped = await run(5, { groupBy: "n" });
    expect(stopped.hint).toMatch(/^The scan stopped at 5 items .* Narrow it with `state`\.$/);
    expect((await run(1_000, { groupBy: "owner", sum: "points" })).content).toEqual([
      expect.objectContaining({
        text: expect.stringMatching(
          /^Unknown field "owner" \(groupBy\), "points" \(sum\): none of the 24 items has it\. Example:/,
        ),
      }),
    ]);
    // After a scan a bound stopped, an unseen field may only be further on: no refusal.
    expect((await run(5, { groupBy: "owner" })).isError).toBeUndefined();
  });
});
