import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The child runs on the compiled package (dist/); `npm test` builds it first.
const CHILD = "test/support/lazy-imports.mjs";
const NONE = {
  tokenizer: false,
  re2: false,
  mingo: false,
  ioredis: false,
  http: false,
  pg: false,
  s3: false,
  sdkClient: false,
  sdkV2: false,
};

describe("heavy packages load only when used (a fresh process on the compiled package)", () => {
  it("the quick start loads none of them; each loads with the feature that needs it", async () => {
    if (!existsSync("dist/index.js"))
      throw new Error("dist/ is missing: run `npm run build` (npm test does it)");
    const { stdout } = await promisify(execFile)(process.execPath, [CHILD], { timeout: 30_000 });
    const steps = JSON.parse(stdout) as Record<string, Record<keyof typeof NONE, boolean>>;
    expect(steps.imported).toEqual(NONE);
    // A tool and a resource template, called: no tokenizer, RE2, Redis, HTTP stack, pg or AWS
    // SDK; the SDK's client only because createTestClient connects one.
    expect(steps.quickstart).toEqual({ ...NONE, sdkClient: true });
    expect(steps.budgeted).toEqual({ ...NONE, tokenizer: true, sdkClient: true });
    expect(steps.literalSearch?.re2).toBe(false);
    expect(steps.regexSearch?.re2).toBe(true);
    expect(steps.regexSearch?.mingo).toBe(false);
    expect(steps.query?.mingo).toBe(true);
    expect(steps.redisConstructed).toMatchObject({ ioredis: true, http: false });
    expect(steps.appCreated?.http).toBe(false);
    expect(steps.httpHandler).toMatchObject({ http: true, pg: false, s3: false });
  });
});
