import { writeFile } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type AppConfig, describeBackends } from "../src/config/app-config.js";
import { startServer } from "../src/server.js";
import { renderHtml } from "./html-report.js";
import { add, costOfText, ZERO } from "./measure.js";
import { ProgressBar, type ProgressTarget } from "./progress-bar.js";
import { renderNotes, renderTable, saved, totals, versusPlain } from "./report-table.js";
import { STEPS, type StepResult, type StepRun } from "./steps.js";

/** Options of `runDemo`. */
export interface DemoOptions {
  /** The flagship's configuration (backends, seed sizes). */
  config: AppConfig;
  /** Where the table goes (default stdout). */
  out?: { write(text: string): unknown };
  /** Where progress bars are drawn (default stderr; drawn only on a terminal). */
  progress?: ProgressTarget | undefined;
  /** Also write the results as an HTML page here. */
  html?: string | undefined;
}

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "frugal-demo", version: "1.0.0" });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

async function costOfTexts(texts: readonly string[]) {
  let cost = ZERO;
  for (const text of texts) cost = add(cost, await costOfText(text));
  return cost;
}

/**
 * Starts the flagship on a free port, drives it over Streamable HTTP with the SDK client
 * as a model would (list, page, project, read a cached resource twice, write and see the
 * invalidation, search logs and read the result in slices, tail a log), and prints per
 * step the tokens and bytes the model received against the same data returned whole, and
 * against exactly the data the model got as a plain tool's JSON (no envelope, no cursor, one call).
 *
 * @example
 * ```ts
 * const steps = await runDemo({ config: readAppConfig(process.env), html: "report.html" });
 * ```
 */
export async function runDemo(options: DemoOptions): Promise<StepResult[]> {
  const out = options.out ?? process.stdout;
  const progress = "progress" in options ? options.progress : process.stderr;
  const started = performance.now();
  const server = await startServer(options.config, { port: 0 });
  const backends = describeBackends(options.config);
  out.write(`frugal-mcp demo: the flagship on ${server.url}\n${backends}\n\n`);
  const reader = await connect(server.url);
  const admin = await connect(server.url, "demo-admin");
  const runs: StepRun[] = [];
  try {
    for (const step of STEPS) runs.push(await step({ reader, admin, app: server.app, progress }));
  } finally {
    await reader.close();
    await admin.close();
    await server.close();
  }
  // Counting the whole answers (megabytes of text) is the longest part: show it.
  const bar = new ProgressBar(progress, "counting", runs.length);
  const results: StepResult[] = [];
  for (const { wholeTexts, plainTexts, ...run } of runs) {
    results.push({ ...run, plain: await costOfTexts(plainTexts), whole: await costOfTexts(wholeTexts) });
    bar.tick();
  }
  bar.done();
  const total = totals(results);
  const ratio = total.frugal.tokens > 0 ? total.whole.tokens / total.frugal.tokens : 0;
  out.write(`${renderTable(results)}\n\n`);
  out.write(
    `The model read ${total.frugal.tokens.toLocaleString("en-US")} tokens in ${total.calls} calls instead of ` +
      `${total.whole.tokens.toLocaleString("en-US")}: ${saved(total.frugal.tokens, total.whole.tokens)} less ` +
      `(${ratio.toFixed(0)}× fewer tokens). ${((performance.now() - started) / 1000).toFixed(1)} s.\n` +
      `A plain tool returning exactly the same data as minified JSON, in one call per step, would cost ` +
      `${total.plain.tokens.toLocaleString("en-US")} tokens (frugal-mcp: ${versusPlain(total.frugal.tokens, total.plain.tokens)}).\n\n`,
  );
  out.write(`${renderNotes(results)}\n`);
  if (options.html) {
    const date = new Date().toISOString().slice(0, 10);
    await writeFile(options.html, renderHtml(results, { url: server.url, backends, date }));
    out.write(`\nWrote ${options.html}\n`);
  }
  return results;
}
