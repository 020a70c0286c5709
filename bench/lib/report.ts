/**
 * Reporting helpers shared by the benchmarks under bench/: a description of the machine,
 * and a way to keep one section of BENCHMARKS.md up to date without touching the others.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

/** What a result depends on besides the code. */
export interface Machine {
  cpu: string;
  cpus: number;
  memoryGiB: number;
  node: string;
  os: string;
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? "unknown CPU",
    cpus: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
  };
}

/** `2 × Intel Xeon …, 7.8 GiB, Node v20.20.2, linux 6.1` */
export function describeMachine(m: Machine = machine()): string {
  return `${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}`;
}

/**
 * Writes `body` under the level-2 `heading` of a markdown file: replaces that section
 * (up to the next level-2 heading) if the file has it, else appends it at the end.
 * Everything else in the file is kept byte for byte; a missing file is created with
 * `title`. The file is replaced by a rename, so a reader never sees half of it.
 *
 * @example
 * ```ts
 * upsertSection(new URL("../../BENCHMARKS.md", import.meta.url), "Caching (bench:cache)", table);
 * ```
 */
export function upsertSection(file: URL, heading: string, body: string, title = "# Benchmarks"): void {
  const path = fileURLToPath(file);
  const section = `## ${heading}\n\n${body.trim()}\n`;
  const before = existsSync(path) ? readFileSync(path, "utf8") : `${title}\n`;
  const lines = before.split("\n");
  const start = lines.findIndex((line) => line.trimEnd() === `## ${heading}`);
  let after: string;
  if (start === -1) {
    after = `${before.replace(/\n*$/, "")}\n\n${section}`;
  } else {
    const next = lines.findIndex((line, i) => i > start && line.startsWith("## "));
    const head = lines.slice(0, start).join("\n");
    const tail = next === -1 ? "" : `\n${lines.slice(next).join("\n")}`;
    after = `${head}${head ? "\n" : ""}${section}${tail}`;
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, after);
  renameSync(temporary, path);
}

/** Writes a benchmark's raw figures to bench/results/<name>.json (from the compiled .build/bench/lib/). */
export function writeResults(name: string, results: unknown): void {
  const dir = new URL("../../../bench/results/", import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL(`${name}.json`, dir), `${JSON.stringify(results, null, 2)}\n`);
}
