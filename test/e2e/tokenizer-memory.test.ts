import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The child runs on the compiled package (dist/); `npm test` builds it first.
const CHILD = "test/support/tokenizer-memory.mjs";
// gpt-tokenizer's own encoder added 50–64 MiB here; CompactBpe adds 1–15 MiB (BENCHMARKS.md,
// "Cold start with budgets"). The bound sits between, with room for a noisy machine.
const MAX_ADDED_MIB = 30;

describe("the default token counter's memory (a fresh process on the compiled package)", () => {
  it(`adds less than ${MAX_ADDED_MIB} MiB of resident memory to a server once loaded and counting`, async () => {
    if (!existsSync("dist/index.js"))
      throw new Error("dist/ is missing: run `npm run build` (npm test does it)");
    const { stdout } = await promisify(execFile)(process.execPath, [CHILD], { timeout: 30_000 });
    const { addedMiB, tokens } = JSON.parse(stdout) as { addedMiB: number; tokens: number };
    expect(tokens).toBeGreaterThan(100);
    expect(addedMiB).toBeLessThan(MAX_ADDED_MIB);
  });
});
