import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * test/reliability: Redis faults, hostile clients, session limits, shutdown under load.
 * One file at a time, after the unit and end-to-end tests (`npm test` runs both). The base
 * config's `exclude` (which leaves this folder out) is replaced, not merged.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/reliability/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    fileParallelism: false,
    // Fixed amounts of work (2,000 sessions, 100,000 calls, Redis killed and restarted) take
    // 5–8 s alone, and one of them timed out in a full `npm test` on a busy machine (issue 27):
    // the bound is there to catch a hang. A test says how fast something must be with expect(),
    // never with its timeout, and gives no timeout of its own below this one.
    testTimeout: 120_000,
  },
});
