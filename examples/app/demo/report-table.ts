import type { Cost } from "./measure.js";
import type { StepResult } from "./steps.js";

/** The sum of every step. */
export function totals(steps: readonly StepResult[]): {
  calls: number;
  frugal: Cost;
  plain: Cost;
  whole: Cost;
} {
  const sum = (a: Cost, b: Cost): Cost => ({ tokens: a.tokens + b.tokens, bytes: a.bytes + b.bytes });
  const zero = { tokens: 0, bytes: 0 };
  return steps.reduce(
    (total, s) => ({
      calls: total.calls + s.calls,
      frugal: sum(total.frugal, s.frugal),
      plain: sum(total.plain, s.plain),
      whole: sum(total.whole, s.whole),
    }),
    { calls: 0, frugal: zero, plain: zero, whole: zero },
  );
}

/**
 * frugal-mcp's tokens against a plain tool's for the same data, signed: `-12.0%` (fewer),
 * `+8.3%` (more). Paging envelopes, cursors and extra calls cost tokens; tables save them.
 */
export function versusPlain(frugal: number, plain: number): string {
  if (plain <= 0) return "—";
  const change = (frugal / plain - 1) * 100;
  return `${change > 0 ? "+" : ""}${change.toFixed(1)}%`;
}

/** `93.4%`, or `—` when nothing was to be saved. */
export function saved(frugal: number, whole: number): string {
  if (whole <= 0 || frugal >= whole) return "—";
  return `${((1 - frugal / whole) * 100).toFixed(1)}%`;
}

const number = (n: number) => n.toLocaleString("en-US");

/**
 * The savings table as aligned plain text, one row per step and a total: frugal-mcp's
 * tokens, the same data from a plain tool ("vs plain": the envelope's and the extra calls'
 * cost, or a table's saving), and the data returned whole ("saved").
 */
export function renderTable(steps: readonly StepResult[]): string {
  const total = totals(steps);
  const rows = [
    ["step", "calls", "tokens", "bytes", "plain tokens", "vs plain", "whole tokens", "whole bytes", "saved"],
    ...[...steps.map((s) => ({ ...s, name: s.step })), { ...total, name: "total" }].map((s) => [
      s.name,
      String(s.calls),
      number(s.frugal.tokens),
      number(s.frugal.bytes),
      number(s.plain.tokens),
      versusPlain(s.frugal.tokens, s.plain.tokens),
      number(s.whole.tokens),
      number(s.whole.bytes),
      saved(s.frugal.tokens, s.whole.tokens),
    ]),
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
