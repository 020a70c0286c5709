import { describe, expect, it } from "vitest";
import { AppMetrics } from "../../../src/metrics/app-metrics.js";

describe("AppMetrics", () => {
  it("adds up the tokens of each tool and how many calls were counted", () => {
    const metrics = new AppMetrics();
    metrics.recordTokens("list_articles", 120);
    metrics.recordTokens("list_articles", 80);
    metrics.recordTokens("get_article", 40);
    expect(metrics.tokensByTool.get("list_articles")).toEqual({ calls: 2, tokens: 200 });
    expect(metrics.tokensByTool.get("get_article")).toEqual({ calls: 1, tokens: 40 });
  });

  it("makes one set of counters per operation, on its first use", () => {
    const metrics = new AppMetrics();
    const first = metrics.operation("list_articles");
    first.complete(1, false);
    expect(metrics.operation("list_articles")).toBe(first);
    expect(metrics.operation("get_article")).not.toBe(first);
    expect([...metrics.operations.keys()]).toEqual(["list_articles", "get_article"]);
  });

  it("counts failed sources of resources/list in total and per source", () => {
    const metrics = new AppMetrics();
    metrics.recordListFailure("articles://{site}");
    metrics.recordListFailure("articles://{site}");
    metrics.recordListFailure("ephemeral");
    expect(metrics.resourceListErrors).toBe(3);
    expect(Object.fromEntries(metrics.listFailures)).toEqual({ "articles://{site}": 2, ephemeral: 1 });
  });
});
