// Step 2 of `npm run build` (step 1: `tsc -p tsconfig.build.json`, which compiles src/ to
// .build/lib/ and writes the declarations to dist/): bundles tsc's JavaScript into dist/,
// one file per public entry (`frugal-mcp`, `frugal-mcp/testing`, `frugal-mcp/testing/vitest`,
// `frugal-mcp/s3`) and the code they share in dist/chunks/. A second build puts the command line (src/cli/: the
// `frugal-mcp` bin and the `frugal-mcp/register` module hook) in dist/cli/: it imports none
// of the library, so neither side's files (nor rolldown's runtime helpers) are shared.
//
// Why bundle: a cold start pays Node's resolve/read/compile cost per ES module, and
// frugal-mcp is ~170 small modules. Loaded one by one they took 89–130 ms of the quick
// start's start-up; bundled, 15–30 ms (BENCHMARKS.md, "Cold start").
//
// What stays as it was:
// - every package (and node: builtin) is external, imported from node_modules at run time,
//   never copied in: the bundle holds frugal-mcp's own code only;
// - the heavy packages stay lazy: their `import()` and `createRequire(import.meta.url)(…)`
//   calls are left as they are (test/e2e/lazy-imports.test.ts checks it on dist/);
// - plain ES modules without top-level await, so `require("frugal-mcp")` (require(esm),
//   Node 20.19+) works as `import` does;
// - class and function names (`keepNames`): messages and logs print them.
// Source maps lead back to src/*.ts (shipped in the package), through tsc's own maps.
import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { defineConfig } from "rolldown";

const COMPILED = "./.build/lib";

/** A bare specifier (`ioredis`, `@modelcontextprotocol/sdk/…`, `node:http`): a package, not our code. */
const isPackage = (id) => !/^\.\.?\//.test(id) && !isAbsolute(id) && !id.startsWith("\0");

/** Hands rolldown each compiled module with tsc's source map, so the bundle's maps reach src/. */
const tscSourceMaps = {
  name: "tsc-source-maps",
  async load(id) {
    if (!id.endsWith(".js")) return null;
    const code = await readFile(id, "utf8");
    const map = await readFile(`${id}.map`, "utf8").catch(() => null);
    return { code: code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"), map };
  },
};

/**
 * Fails the build if anything but frugal-mcp's own compiled code landed in a chunk: a package
 * copied in would no longer be shared with the user's copy, and no longer load lazily.
 */
const ownCodeOnly = {
  name: "own-code-only",
  generateBundle(_options, bundle) {
    const own = resolve(COMPILED);
    for (const output of Object.values(bundle)) {
      if (output.type !== "chunk") continue;
      const foreign = output.moduleIds.filter((id) => !id.startsWith(own) && !id.startsWith("\0"));
      if (foreign.length > 0)
        this.error(`${output.fileName} bundles modules from outside ${COMPILED}: ${foreign.join(", ")}`);
    }
  },
};

/** What both builds share: packages stay external, tsc's maps lead back to src/. */
const common = {
  external: isPackage,
  platform: "node",
  plugins: [tscSourceMaps, ownCodeOnly],
};
const commonOutput = {
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name].js",
  keepNames: true,
  sourcemap: true,
  // The sources ship in the package (src/), as the declaration maps need them too.
  sourcemapExcludeSources: true,
};

export default defineConfig([
  {
    ...common,
    input: {
      index: `${COMPILED}/index.js`,
      "testing/index": `${COMPILED}/testing/index.js`,
      "testing/vitest": `${COMPILED}/testing/vitest.js`,
      "s3/index": `${COMPILED}/s3/index.js`,
    },
    output: {
      ...commonOutput,
      dir: "dist",
      // All of frugal-mcp's code in one shared chunk, the entries re-exporting from it: a
      // process that imports any entry loads two files of ours. The vitest matchers stay in
      // their own entry file: the shared chunk must never import vitest (an optional peer).
      codeSplitting: {
        groups: [{ name: "frugal-mcp", test: /[\\/]\.build[\\/]lib[\\/](?!testing[\\/]vitest\.js$)/ }],
      },
    },
  },
  {
    ...common,
    // The bin keeps its `#!/usr/bin/env node` line; the hook's two files stay siblings, as
    // `module.register("./register-hooks.js", import.meta.url)` expects.
    input: {
      main: `${COMPILED}/cli/main.js`,
      register: `${COMPILED}/cli/register.js`,
      "register-hooks": `${COMPILED}/cli/register-hooks.js`,
    },
    output: { ...commonOutput, dir: "dist/cli" },
  },
]);
