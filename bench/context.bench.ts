/**
 * bench:context — what the model reads to get an answer (`npm run bench:context`).
 *
 * Eleven agent tasks (lookup, list with fields, counts, aggregates, tail then poll, search
 * with context, a long field, an export read in slices) over 20,000 issues and 200,000 log
 * lines generated from a fixed seed, each done by a scripted agent through the SDK's real
 * `Client` against three servers: a bare-SDK server answering whole results as JSON, the
 * same cut at 100 kB, and frugal-mcp. Counted: o200k tokens of every tool result the agent
 * reads, tokens of the arguments it writes, calls, and whether its answer matches the
 * ground truth; "the limit" is the answer-relevant data alone in its most compact form.
 * See BENCHMARKS.md ("Context") for the method.
 *
 *   npm run bench:context                       full data set → bench/results/context.json
 *   npm run bench:context -- --small            small data set, printed only
 *   npm run bench:context -- --update           also rewrites bench/results/context-small.json,
 *                                               the figures the CI gate holds frugal-mcp to
 *   npm run bench:context -- --small --update   only that
 *   --only=lookup,count   some tasks;   --trace   every call and what it returned (TRACE_CHARS=n: n characters of each, default 400)
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { FULL, SMALL } from "./context/data.js";
import { renderTables } from "./context/report.js";
import { type ContextResults, runContextBench } from "./context/run.js";

const args = process.argv.slice(2);
const small = args.includes("--small") || process.env.CONTEXT_BENCH_SMALL === "1";
const update = args.includes("--update");
const trace = args.includes("--trace");
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const log = (line: string) => process.stderr.write(`${line}\n`);
const dir = new URL("../../bench/results/", import.meta.url); // from .build/bench/

function write(name: string, results: ContextResults): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL(name, dir), `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote bench/results/${name}`);
}

async function run(dataSet: "full" | "small"): Promise<ContextResults> {
  const started = Date.now();
  log(`context bench, ${dataSet} data set`);
  const results = await runContextBench({
    size: dataSet === "full" ? FULL : SMALL,
    dataSet,
    ...(only ? { only } : {}),
    progress: log,
    ...(trace ? { trace: log } : {}),
  });
  console.log(
    `\n## Context bench (${dataSet} data set: ${results.data.issues} issues, ${results.data.logLines} log lines)\n`,
  );
  console.log(renderTables(results));
  log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  return results;
}

if (small || update) {
  const results = await run("small");
  if (update && !only) write("context-small.json", results);
}
if (!small) {
  const results = await run("full");
  if (!only)
    write("context.json", {
      ...results,
      date: new Date().toISOString(),
      node: process.version,
    } as ContextResults);
}
