/**
 * `npm run demo` (examples/app/demo) on a small data set: it starts the flagship, drives it
 * over Streamable HTTP with the SDK client, and prints a savings table with a total; with
 * `html` it also writes a self-contained page with a bar chart.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runDemo } from "../../examples/app/demo/run-demo.js";
import { EMBEDDED_CONFIG } from "../../examples/app/src/config/app-config.js";
import { TEST_SEED } from "./flagship-contract.js";

describe("the savings demo", () => {
  const dir = mkdtempSync(join(tmpdir(), "flagship-demo-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints tokens and bytes per step against the data returned whole, and a total", async () => {
    let printed = "";
    const html = join(dir, "report.html");
    const steps = await runDemo({
      config: { ...EMBEDDED_CONFIG, seed: TEST_SEED },
      out: { write: (text: string) => (printed += text) },
      progress: undefined,
      html,
    });

    expect(steps.map((s) => s.step)).toEqual([
      "list",
      "page",
      "project",
      "cache",
      "invalidate",
      "search",
      "tail",
    ]);
    const header = printed.split("\n").find((line) => line.startsWith("step"));
    expect(header).toMatch(
      /^step\s+calls\s+tokens\s+bytes\s+plain tokens\s+vs plain\s+whole tokens\s+whole bytes\s+saved$/,
    );
    for (const step of steps) expect(printed).toMatch(new RegExp(`^${step.step}\\s+${step.calls}\\s+`, "m"));
    expect(printed).toMatch(
      /^total\s+\d+\s+[\d,]+\s+[\d,]+\s+[\d,]+\s+[+-]\d+\.\d%\s+[\d,]+\s+[\d,]+\s+\d+\.\d%$/m,
    );
    expect(printed).toMatch(/A plain tool returning exactly the same data .* would cost [\d,]+ tokens/);

    const byStep = Object.fromEntries(steps.map((s) => [s.step, s]));
    // What paging, projection, spilling and windows are for: far less than the data whole.
    for (const step of ["list", "page", "project", "search", "tail"]) {
      expect(byStep[step]?.frugal.tokens, step).toBeLessThan(byStep[step]?.whole.tokens ?? 0);
    }
    expect(byStep.list?.frugal.tokens).toBeLessThan((byStep.list?.whole.tokens ?? 0) / 20);
    // The plain column counts the same data the model got: never more than the data whole,
    // and a uniform page rendered as a table is no dearer than its JSON.
    for (const step of steps) expect(step.plain.tokens, step.step).toBeGreaterThan(0);
    for (const step of ["list", "page", "project", "search", "tail"])
      expect(byStep[step]?.plain.tokens, step).toBeLessThan(byStep[step]?.whole.tokens ?? 0);
    expect(byStep.list?.frugal.tokens).toBeLessThanOrEqual((byStep.list?.plain.tokens ?? 0) * 1.1);
    // The cache: two reads, one query; the write made the next read fresh.
    expect(byStep.cache?.note).toContain("database queried 1× for 2 reads");
    expect(byStep.invalidate?.note).toContain("read theme=dark");
    expect(byStep.search?.note).toMatch(/stored as ephemeral:\/\/app_search_logs\//);

    const page = readFileSync(html, "utf8");
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain("<svg");
    expect(page.match(/class="frugal"/g)).toHaveLength(steps.length);
    // Self-contained: no scripts, stylesheets or images fetched from anywhere.
    expect(page).not.toMatch(/<script|<link|src=|url\(/);
  });
});
