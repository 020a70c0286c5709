/**
 * The token-cost gate (issue 24, item 8). frugal-mcp exists so that a model reads few
 * tokens, so what it reads is held to the committed figures like any other behaviour: the
 * context bench's tasks, run on the small data set against frugal-mcp, may not read more
 * than 2 % more tokens (nor read and write more than 2 % more in all) than
 * bench/results/context-small.json says, and an answer that was correct must stay correct.
 * Token counts are deterministic (fixed data, a manual clock, a fixed cursor secret, and
 * the random ids of stored results, and the cursors that sign them, replaced by fixed
 * stand-ins before counting), so any change is a real one.
 *
 * When a change makes answers leaner (or a new task is added), commit the new figures:
 *
 *   npm run bench:context -- --small --update
 *
 * (`npm run bench:context -- --update` also reruns the full data set for BENCHMARKS.md.)
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { SMALL } from "../../bench/context/data.js";
import { type ContextResults, runContextBench } from "../../bench/context/run.js";

const TOLERANCE = 1.02;
const UPDATE = "npm run bench:context -- --small --update";
const committed = JSON.parse(
  readFileSync(new URL("../../bench/results/context-small.json", import.meta.url), "utf8"),
) as ContextResults;

describe("context bench: frugal-mcp's token cost, against bench/results/context-small.json", () => {
  let run: ContextResults;
  beforeAll(async () => {
    run = await runContextBench({ size: SMALL, dataSet: "small", contenders: ["frugal"] });
  }, 60_000);

  it("runs the tasks whose figures are committed", () => {
    expect(
      run.tasks.map((task) => task.id),
      `the tasks changed: commit their figures with \`${UPDATE}\``,
    ).toEqual(committed.tasks.map((task) => task.id));
  });

  for (const before of committed.tasks) {
    const was = before.contenders.frugal;
    if (!was) continue;
    it(`${before.id}: at most 2 % more tokens than ${was.tokens} read (+${was.written} written)${was.correct ? ", correct" : ""}`, () => {
      const now = run.tasks.find((task) => task.id === before.id)?.contenders.frugal;
      expect(now, `task ${before.id} did not run`).toBeDefined();
      if (!now) return;
      const grew = (from: number, to: number) =>
        `${from} → ${to} (${(((to - from) / from) * 100).toFixed(1)} %)`;
      expect(
        now.tokens,
        `${before.id}: frugal-mcp's answers grew ${grew(was.tokens, now.tokens)}, more than 2 %. ` +
          `If that is intended, commit new figures with \`${UPDATE}\`.`,
      ).toBeLessThanOrEqual(Math.floor(was.tokens * TOLERANCE));
      expect(
        now.tokens + now.written,
        `${before.id}: tokens read and written grew ${grew(was.tokens + was.written, now.tokens + now.written)}, more than 2 %. ` +
          `If that is intended, commit new figures with \`${UPDATE}\`.`,
      ).toBeLessThanOrEqual(Math.floor((was.tokens + was.written) * TOLERANCE));
      if (was.correct)
        expect(
          now.correct,
          `${before.id}: the answer is now wrong${now.error ? ` (${now.error})` : ""}`,
        ).toBe(true);
    });
  }
});
