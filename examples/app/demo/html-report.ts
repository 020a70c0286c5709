import { saved, totals, versusPlain } from "./report-table.js";
import type { StepResult } from "./steps.js";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
const number = (n: number) => n.toLocaleString("en-US");

/**
 * A bar chart of tokens per step, frugal-mcp against returned whole, as inline SVG. The
 * scale is logarithmic: the whole answers are up to thousands of times larger, and a
 * linear scale would draw the frugal bars as nothing.
 */
function chart(steps: readonly StepResult[]): string {
  const rowHeight = 44;
  const left = 90;
  const width = 640;
  const max = Math.max(10, ...steps.map((s) => Math.max(s.whole.tokens, s.frugal.tokens)));
  const scale = (tokens: number) =>
    tokens <= 0 ? 0 : (Math.log10(tokens + 1) / Math.log10(max + 1)) * width;
  const bars = steps
    .map((s, i) => {
      const y = 10 + i * rowHeight;
      return [
        `<text x="0" y="${y + 22}" class="label">${escapeHtml(s.step)}</text>`,
        `<rect x="${left}" y="${y}" width="${scale(s.whole.tokens).toFixed(1)}" height="16" class="whole"><title>returned whole: ${number(s.whole.tokens)} tokens</title></rect>`,
        `<text x="${(left + scale(s.whole.tokens) + 6).toFixed(1)}" y="${y + 13}" class="value">${number(s.whole.tokens)}</text>`,
        `<rect x="${left}" y="${y + 18}" width="${scale(s.frugal.tokens).toFixed(1)}" height="16" class="frugal"><title>frugal-mcp: ${number(s.frugal.tokens)} tokens</title></rect>`,
        `<text x="${(left + scale(s.frugal.tokens) + 6).toFixed(1)}" y="${y + 31}" class="value">${number(s.frugal.tokens)}</text>`,
      ].join("");
    })
    .join("\n");
  const height = 20 + steps.length * rowHeight;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${left + width + 90} ${height}" role="img" aria-label="tokens per step">${bars}</svg>`;
}

/** The demo's results as one self-contained HTML page (inline CSS and SVG, no external assets). */
export function renderHtml(
  steps: readonly StepResult[],
  context: { url: string; backends: string; date: string },
): string {
  const total = totals(steps);
  const rows = steps
    .map(
      (s) => `<tr><td>${escapeHtml(s.step)}</td><td>${escapeHtml(s.did)}</td><td>${s.calls}</td>
<td>${number(s.frugal.tokens)}</td><td>${number(s.frugal.bytes)}</td><td>${number(s.plain.tokens)}</td><td>${versusPlain(s.frugal.tokens, s.plain.tokens)}</td><td>${number(s.whole.tokens)}</td><td>${number(s.whole.bytes)}</td>
<td>${saved(s.frugal.tokens, s.whole.tokens)}</td><td class="note">${escapeHtml(s.note)}. Whole = ${escapeHtml(s.wholeIs)}.</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>frugal-mcp savings</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#1d2330;padding:0 1rem}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{padding:.35rem .6rem;border-bottom:1px solid #dde2ea;text-align:right;vertical-align:top}
th:nth-child(1),td:nth-child(1),th:nth-child(2),td:nth-child(2),td.note{text-align:left}
td.note{color:#566074;font-size:.88em}tfoot td{font-weight:600}
svg{width:100%;max-width:820px;height:auto}.label{font:600 13px system-ui}.value{font:12px system-ui;fill:#566074}
.whole{fill:#c4cad6}.frugal{fill:#2f9e6e}.key span{display:inline-block;width:12px;height:12px;margin:0 .3rem 0 1rem;vertical-align:-1px}
</style></head><body>
<h1>What a model reads: frugal-mcp against returned whole</h1>
<p>"Plain" is exactly the data the model got, as a plain tool's minified JSON in one call per step: the envelopes, cursors and extra calls cost tokens, tables save them.</p>
<p>${escapeHtml(context.date)} · ${escapeHtml(context.url)} · ${escapeHtml(context.backends)}. Tokens counted with the o200k BPE tokenizer frugal-mcp's budgets use.</p>
<p class="key"><span style="background:#c4cad6"></span>returned whole<span style="background:#2f9e6e"></span>with frugal-mcp (tokens, log scale)</p>
${chart(steps)}
<table><thead><tr><th>step</th><th>what the model did</th><th>calls</th><th>tokens</th><th>bytes</th><th>plain tokens</th><th>vs plain</th><th>whole tokens</th><th>whole bytes</th><th>saved</th><th>notes</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><td>total</td><td></td><td>${total.calls}</td><td>${number(total.frugal.tokens)}</td><td>${number(total.frugal.bytes)}</td><td>${number(total.plain.tokens)}</td><td>${versusPlain(total.frugal.tokens, total.plain.tokens)}</td><td>${number(total.whole.tokens)}</td><td>${number(total.whole.bytes)}</td><td>${saved(total.frugal.tokens, total.whole.tokens)}</td><td></td></tr></tfoot>
</table></body></html>
`;
}
