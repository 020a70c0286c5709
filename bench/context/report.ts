import type { ContenderName, ContextResults } from "./run.js";

const LABELS: Record<ContenderName, string> = {
  bare: "bare SDK, whole results",
  capped: "bare SDK, cut at 100 kB",
  frugal: "frugal-mcp",
};

const n = (value: number) => value.toLocaleString("en-US");
const ratio = (value: number) => (value >= 100 ? n(Math.round(value)) : value.toFixed(2));

/** One markdown table per contender (tokens read, calls, correct, ratio to the limit), then a summary. */
export function renderTables(results: ContextResults): string {
  const contenders = Object.keys(results.catalogue) as ContenderName[];
  const out: string[] = [];
  for (const contender of contenders) {
    const catalogue = results.catalogue[contender];
    out.push(
      `### ${LABELS[contender]} (tools/list: ${catalogue?.tools} tools, ${n(catalogue?.tokens ?? 0)} tokens, once per session)`,
      "",
      "| task | kind | tokens read | × limit | calls | tokens written | correct | cursors (median chars / tokens) | how |",
      "| --- | --- | ---: | ---: | ---: | ---: | :---: | ---: | --- |",
    );
    let correct = 0;
    for (const task of results.tasks) {
      const o = task.contenders[contender];
      if (!o) continue;
      if (o.correct) correct++;
      const how = o.error ? `gave up: ${o.error.slice(0, 80)}` : (o.strategy ?? "");
      const cursors = o.cursors
        ? `${o.cursors.count} (${o.cursors.medianChars} / ${o.cursors.medianTokens})`
        : "";
      out.push(
        `| ${task.id} | ${task.kind} | ${n(o.tokens)} | ${ratio(o.ratio)} | ${o.calls} | ${n(o.written)} | ${o.correct ? "yes" : "**no**"} | ${cursors} | ${how} |`,
      );
    }
    out.push("", `${correct} of ${results.tasks.length} correct.`, "");
  }
  out.push(
    "### Summary: tokens read (× the limit), correct",
    "",
    `| task | the limit | ${contenders.map((c) => LABELS[c]).join(" | ")} |`,
    `| --- | ---: | ${contenders.map(() => "---:").join(" | ")} |`,
  );
  for (const task of results.tasks) {
    const cells = contenders.map((c) => {
      const o = task.contenders[c];
      return o ? `${n(o.tokens)} (${ratio(o.ratio)}×)${o.correct ? "" : " ✗"}` : "";
    });
    out.push(`| ${task.id} | ${n(task.limit.tokens)} | ${cells.join(" | ")} |`);
  }
  out.push("", "✗: wrong answer.");
  return out.join("\n");
}
