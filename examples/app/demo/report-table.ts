import type { Cost } from "./measure.js";
import type { StepResult } from "./steps.js";

/** The sum of every step. */
export function totals(steps: readonly StepResult[]): { calls: number; frugal: Cost; whole: Cost } {
  return steps.reduce(
    (sum, s) => ({
      calls: sum.calls + s.calls,
      frugal: { tokens: sum.frugal.tokens + s.frugal.tokens, bytes: sum.frugal.bytes + s.frugal.bytes },
      whole: { tokens: sum.whole.tokens + s.whole.tokens, bytes: sum.whole.bytes + s.whole.bytes },
    }),
    { calls: 0, frugal: { tokens: 0, bytes: 0 }, whole: { tokens: 0, bytes: 0 } },
  );
}

/** `93.4%`, or `—` when nothing was to be saved. */
export function saved(frugal: number, whole: number): string {
  if (whole <= 0 || frugal >= whole) return "—";
  return `${((1 - frugal / whole) * 100).toFixed(1)}%`;
}

const number = (n: number) => n.toLocaleString("en-US");

/** The savings table as aligned plain text, one row per step and a total. */
export function renderTable(steps: readonly StepResult[]): string {
  const total = totals(steps);
  const rows = [
    ["step", "calls", "tokens", "bytes", "whole tokens", "whole bytes", "saved"],
    ...steps.map((s) => [
      s.step,
      String(s.calls),
      number(s.frugal.tokens),
      number(s.frugal.bytes),
      number(s.whole.tokens),
      number(s.whole.bytes),
      saved(s.frugal.tokens, s.whole.tokens),
    ]),
    [
      "total",
      String(total.calls),
      number(total.frugal.tokens),
      number(total.frugal.bytes),
      number(total.whole.tokens),
      number(total.whole.bytes),
      saved(total.frugal.tokens, total.whole.tokens),
    ],
  ];
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? "").length))) ?? [];
  const line = (r: string[]) =>
    r
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
      .join("  ");
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  const body = rows.map(line);
  return [body[0], rule, ...body.slice(1, -1), rule, body.at(-1)].join("\n");
}

/** What each step did and what "whole" means for it, one line each. */
export function renderNotes(steps: readonly StepResult[]): string {
  return steps.map((s) => `${s.step.padEnd(10)} ${s.did}: ${s.note}. Whole = ${s.wholeIs}.`).join("\n");
}
