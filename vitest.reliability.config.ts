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
    testTimeout: 30_000,
  },
});
