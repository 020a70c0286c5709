import { describe, expect, it, vi } from "vitest";
import { CatalogueViews, MAX_CATALOGUE_VIEWS } from "../../../src/metrics/catalogue-views.js";
import type { TokenCounter } from "../../../src/tokenizer/token-counter.js";

const tool = (name: string) => ({ name, description: `does ${name}`, inputSchema: { type: "object" } });

/** A counter that counts characters, and how often it was asked. */
function charCounter(): TokenCounter & { calls: number } {
  const counter = {
    calls: 0,
    count(text: string) {
      counter.calls++;
      return { tokens: text.length, exact: true };
    },
  };
  return counter;
}

describe("CatalogueViews", () => {
  it("counts each view's cost once, however often it is served, and counts the servings", async () => {
    const counter = charCounter();
    const views = new CatalogueViews(counter);
    const list = [tool("a"), tool("b")];
    views.served(list);
    views.served(list);
    views.served([tool("a"), tool("b")]); // the same names in another array: the same view
    await vi.waitFor(() => expect(views.stats().views[0]?.tokens).toBeDefined());
    views.served(list);
    expect(views.stats()).toEqual({
      views: [
        {
          tools: ["a", "b"],
          tokens: JSON.stringify(
            list.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
          ).length,
          served: 4,
        },
      ],
      otherViews: { served: 0 },
    });
    expect(counter.calls).toBe(1);
  });

  it("keeps distinct views apart up to the bound and counts the rest together", () => {
    const views = new CatalogueViews(charCounter());
    for (let i = 0; i < MAX_CATALOGUE_VIEWS + 3; i++) views.served([tool(`t${i}`)]);
    views.served([tool("t0")]);
    views.served([tool("late")]);
    const stats = views.stats();
    expect(stats.views).toHaveLength(MAX_CATALOGUE_VIEWS);
    expect(stats.views[0]).toMatchObject({ tools: ["t0"], served: 2 });
    expect(stats.otherViews).toEqual({ served: 4 });
  });

  it("counts nothing while a listing is served, only once the statistics are read; a failed count is tried again", async () => {
    let calls = 0;
    const counter: TokenCounter = {
      count: () => {
        calls++;
        if (calls === 1) throw new Error("tokenizer down");
        return { tokens: 7, exact: true };
      },
    };
    const views = new CatalogueViews(counter);
    views.served([tool("a")]);
    expect(calls).toBe(0);
    expect(views.stats().views[0]?.tokens).toBeUndefined();
    views.served([tool("a")]);
    expect(calls).toBe(0);
    // Read again once the failed count has settled, the view is counted.
    await vi.waitFor(() => expect(views.stats().views[0]?.tokens).toBe(7));
    expect(calls).toBe(2);
  });

  it("only counts servings without a counter", () => {
    const views = new CatalogueViews();
    views.served([tool("a")]);
    expect(views.stats().views).toEqual([{ tools: ["a"], tokens: undefined, served: 1 }]);
  });
});
