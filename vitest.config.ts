import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests import the package by its public name, like a user would; point it at the sources.
    alias: [
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
    setupFiles: ["test/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
