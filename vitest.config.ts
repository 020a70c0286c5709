import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests import the package by its public name, like a user would; point it at the sources.
    alias: [
      {
        find: /^frugal-mcp\/testing\/vitest$/,
        replacement: fileURLToPath(new URL("./src/testing/vitest.ts", import.meta.url)),
      },
      {
        find: /^frugal-mcp\/testing$/,
        replacement: fileURLToPath(new URL("./src/testing/index.ts", import.meta.url)),
      },
      { find: /^frugal-mcp\/s3$/, replacement: fileURLToPath(new URL("./src/s3/index.ts", import.meta.url)) },
      { find: /^frugal-mcp$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The reliability suite injects faults and load; it runs after the rest, one file at a
    // time (vitest.reliability.config.ts), so it neither starves nor is starved by them.
    exclude: ["test/reliability/**", "**/node_modules/**"],
    setupFiles: ["test/setup.ts"],
    // A timeout is there to catch a hang, not a slow machine: the longest tests (starting an
    // embedded PostgreSQL, seeding it) take a few seconds alone and several times that while
    // other suites share the cores. Tests give a timeout of their own only to raise this one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
