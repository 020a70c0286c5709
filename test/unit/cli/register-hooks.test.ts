import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { LoadFnOutput, ResolveFnOutput } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { load, resolve } from "../../../src/cli/register-hooks.js";

const dir = mkdtempSync(join(tmpdir(), "frugal-register-hooks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "src"));
writeFileSync(join(dir, "package.json"), '{"type":"module"}');
writeFileSync(join(dir, "src", "store.ts"), "export const x = 1;\n");
writeFileSync(join(dir, "src", "plain.js"), "export const y = 2;\n");
const parentURL = pathToFileURL(join(dir, "src", "main.ts")).href;

/**
 * The next resolver in Node's chain, as far as these tests need it: a relative specifier
 * names a file next to its parent, and a missing file is ERR_MODULE_NOT_FOUND.
 */
const nextResolve = async (specifier: string, context: { parentURL?: string }): Promise<ResolveFnOutput> => {
  const url = new URL(specifier, context.parentURL).href;
  if (!existsSync(fileURLToPath(url))) {
    throw Object.assign(new Error(`Cannot find module ${url}`), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return { url, shortCircuit: true };
};
// Node 20's types still list the deprecated importAssertions, which the hooks never read.
const context = (parent = parentURL) =>
  ({ parentURL: parent, conditions: [], importAttributes: {} }) as unknown as Parameters<typeof resolve>[1];
const loadContext = { conditions: [], format: undefined, importAttributes: {} } as unknown as Parameters<
  typeof load
>[1];

describe("resolve", () => {
  it("maps a TypeScript file's relative .js import to its .ts source when no .js exists", async () => {
    const found = await resolve("./store.js", context(), nextResolve as never);
    expect(found.url).toBe(pathToFileURL(join(dir, "src", "store.ts")).href);
  });

  it("keeps a .js file that exists, and leaves other misses as they were", async () => {
    expect((await resolve("./plain.js", context(), nextResolve as never)).url).toMatch(/plain\.js$/);
    await expect(resolve("./missing.js", context(), nextResolve as never)).rejects.toMatchObject({
      code: "ERR_MODULE_NOT_FOUND",
    });
    // From a JavaScript parent, nothing is rewritten.
    const jsParent = pathToFileURL(join(dir, "src", "main.js")).href;
    await expect(resolve("./store.js", context(jsParent), nextResolve as never)).rejects.toMatchObject({
      code: "ERR_MODULE_NOT_FOUND",
    });
  });
});

describe("load", () => {
  const passed: LoadFnOutput = { format: "module", source: "passed through", shortCircuit: true };
  const nextLoad = async () => passed;

  it("leaves JavaScript and node_modules files to the next loader", async () => {
    const js = pathToFileURL(join(dir, "src", "plain.js")).href;
    expect(await load(js, loadContext, nextLoad as never)).toBe(passed);
    const dependency = pathToFileURL(join(dir, "node_modules", "x", "index.ts")).href;
    expect(await load(dependency, loadContext, nextLoad as never)).toBe(passed);
  });

  it("compiles the project's TypeScript with SWC, and says how to install it when it is missing", async () => {
    const ts = pathToFileURL(join(dir, "src", "store.ts")).href;
    const loading = load(ts, loadContext, nextLoad as never);
    // Handled at once: without SWC, `loading` may reject while the check below still runs.
    Promise.resolve(loading).catch(() => {});
    let swcInstalled = true;
    try {
      await import("@swc/core" as string);
    } catch {
      swcInstalled = false;
    }
    if (swcInstalled) {
      const loaded = await loading;
      expect(loaded).toMatchObject({ format: "module", shortCircuit: true });
      expect(String(loaded.source)).toContain("export const x = 1");
    } else {
      await expect(loading).rejects.toThrow(
        "frugal-mcp/register compiles TypeScript with SWC, which is not installed: `npm install --save-dev @swc/core`",
      );
    }
  });
});
