import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { McpModule, McpService, Tool } from "frugal-mcp";
import { z } from "zod";
import { bytesPerOperation } from "./allocation.js";
import { type Contender, measureAgainstBare } from "./measure.js";

@McpService()
class EchoService {
  @Tool({ description: "Echo the text back", input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return text;
  }
}

/** The frugal-mcp side of the overhead benches: one trivial tool, `echo({ text })`. */
@McpModule({ services: [EchoService] })
export class EchoModule {}

/** One overhead bench: what it is called, what it compares, and how long it runs. */
export interface OverheadRun {
  /** Name of the results file, `bench/results/<benchmark>.json`. */
  readonly benchmark: string;
  /** `bare`, `control` and `frugal`, in that order. */
  readonly contenders: readonly Contender[];
  /** How each contender is named in the printed table. */
  readonly labels: { readonly bare: string; readonly control: string; readonly frugal: string };
  readonly goal: number;
  readonly warmup: number;
  readonly rounds: number;
  readonly callsPerRound: number;
}

/**
 * Times the contenders against `bare` (see `measureAgainstBare`), counts the bytes each
 * allocates per call, prints both as a table and a verdict against the goal, and writes
 * `bench/results/<benchmark>.json`.
 */
export async function runOverheadBench(run: OverheadRun): Promise<void> {
  const { goal, rounds, callsPerRound } = run;
  const { seconds, usPerCall, toBare } = await measureAgainstBare(run.contenders, run);
  const allocated = await bytesPerOperation(run.contenders);
  const met = toBare.frugal.median <= goal;

  console.log("| server | µs/call (median) | ratio to bare (median) | ratio p25–p75 |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const name of ["bare", "control", "frugal"] as const) {
    const ratio = name === "bare" ? undefined : toBare[name];
    const range = ratio ? `${ratio.p25.toFixed(3)}–${ratio.p75.toFixed(3)}` : "";
    console.log(
      `| ${run.labels[name]} | ${usPerCall[name].median.toFixed(1)} | ${(ratio?.median ?? 1).toFixed(3)} | ${range} |`,
    );
  }
  console.log(
    `\nfrugal/bare ${toBare.frugal.median.toFixed(3)} (goal ≤ ${goal.toFixed(2)}: ${met ? "met" : "NOT met"}), ` +
      `control/bare ${toBare.control.median.toFixed(3)}; ${rounds} rounds × ${callsPerRound} calls per server ` +
      `in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `allocated per call (garbage included): ${Object.entries(allocated)
      .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KiB`)
      .join(", ")}; frugal/bare ${(allocated.frugal / allocated.bare).toFixed(3)}`,
  );

  const results = {
    benchmark: run.benchmark,
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    method: { warmup: run.warmup, rounds, callsPerRound, seconds },
    usPerCall,
    ratioToBare: toBare,
    bytesAllocatedPerCall: allocated,
    goal: { frugalToBare: goal, met },
  };
  const dir = new URL("../../../bench/results/", import.meta.url); // from .build/bench/lib/
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL(`${run.benchmark}.json`, dir), `${JSON.stringify(results, null, 2)}\n`);
}
