/**
 * The context bench's frugal-mcp agent takes each feature as the catalogue shows it
 * (`limit: 0`, `tail`, `aggregate`, `query_resource`, `search_resource`'s `count`, `fields`
 * and match windows, `read_resource` by `path`). Those ways are checked here, against a
 * double that answers as DESIGN.md says frugal-mcp will, so that the bench keeps answering
 * correctly the day each feature lands (bench/results/context-small.json then gets leaner
 * figures with `npm run bench:context -- --small --update`).
 */
import { describe, expect, it } from "vitest";
import { SMALL } from "../../bench/context/data.js";
import { runContextBench } from "../../bench/context/run.js";
import { contractDouble, type DoubleOptions } from "./contract-double.js";

async function runAgainst(options: DoubleOptions) {
  const results = await runContextBench({
    size: SMALL,
    dataSet: "small",
    contenders: ["frugal"],
    servers: { frugal: contractDouble(options) },
  });
  return Object.fromEntries(results.tasks.map((task) => [task.id, task.contenders.frugal]));
}

describe("context bench agents, against the features as DESIGN.md describes them", () => {
  it("answer every task correctly, taking the new inputs where the catalogue has them", async () => {
    const outcomes = await runAgainst({ queryResource: true, context: 80 });
    for (const [id, outcome] of Object.entries(outcomes))
      expect(outcome?.correct, `${id}: ${outcome?.error ?? outcome?.strategy}`).toBe(true);
    expect(outcomes.count?.strategy).toBe("limit: 0");
    expect(outcomes["count-by-label"]?.strategy).toBe("aggregate groupBy");
    expect(outcomes.sum?.strategy).toBe("aggregate sum");
    expect(outcomes["titles-containing"]?.strategy).toBe("query_resource");
    expect(outcomes["tail-then-poll"]?.strategy).toBe("tail: 100");
    expect(outcomes["search-context"]?.strategy).toBe("tail: 6 until the match, then 5 after");
    expect(outcomes["long-field"]?.strategy).toBe("search window, then read_resource by path");
    expect(outcomes["log-count"]?.strategy).toBe("search_resource count");
    expect(outcomes["count-by-label"]?.calls).toBe(1);
    expect(outcomes["titles-containing"]?.calls).toBe(2);
  }, 60_000);

  it("count titles with search_resource without query_resource, and read a long line by path when the match window is narrow", async () => {
    const outcomes = await runAgainst({ queryResource: false, context: 20 });
    expect(outcomes["titles-containing"]?.strategy).toBe("search_resource count, then 5 projected matches");
    expect(outcomes["titles-containing"]?.correct).toBe(true);
    expect(outcomes["titles-containing"]?.calls).toBe(3);
    expect(outcomes["long-field"]?.correct).toBe(true);
    expect(outcomes["long-field"]?.calls).toBe(3);
  }, 60_000);
});
