import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { LoadHook, ResolveHook } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Swc, swcOptions } from "./swc-options.js";

// The hooks of `frugal-mcp/register` (see ./register.ts), loaded by `module.register`.

const TYPESCRIPT = /\.[cm]?tsx?$/;
const RELATIVE_JS = /^\.{1,2}\/.*\.[cm]?jsx?$/;

/**
 * Resolves as Node (or tsx) does; when that finds nothing for a relative `./x.js` imported
 * from TypeScript, tries `./x.ts` (the NodeNext convention, which plain Node cannot follow).
 */
export const resolve: ResolveHook = async (specifier, context, next) => {
  try {
    return await next(specifier, context);
  } catch (error) {
    const parent = context.parentURL ?? "";
    if (
      !(
        typeof error === "object" &&
        error !== null &&
        "code" in error &&
        error.code === "ERR_MODULE_NOT_FOUND"
      ) ||
      !RELATIVE_JS.test(specifier) ||
      !TYPESCRIPT.test(parent)
    )
      throw error;
    return next(specifier.replace(/js(x?)$/, "ts$1"), context);
  }
};

/** Compiles the project's own TypeScript (not node_modules') with SWC, decorator metadata on. */
export const load: LoadHook = async (url, context, next) => {
  if (!url.startsWith("file:") || !TYPESCRIPT.test(url) || url.includes("/node_modules/"))
    return next(url, context);
  const filename = fileURLToPath(url);
  const format = formatOf(filename);
  // The loaders after this one still see the file, and their answer is dropped: `tsx watch`
  // learns what to watch from its own load hook. Plain Node 20 refuses a .ts file here.
  await Promise.resolve()
    .then(() => next(url, context))
    .catch(() => undefined);
  const swc = await loadSwc();
  const source = await readFile(filename, "utf8");
  const { code } = await swc.transform(source, swcOptions(filename, format));
  return { format, source: code, shortCircuit: true };
};

let swcLoaded: Promise<Swc> | undefined;
function loadSwc(): Promise<Swc> {
  // A variable specifier: SWC is an optional peer, loaded only when a .ts file is.
  const specifier = "@swc/core";
  swcLoaded ??= (import(specifier) as Promise<Swc & { default?: Swc }>).then(
    (module) => (typeof module.transform === "function" ? module : (module.default as Swc)),
    () => {
      throw new Error(
        "frugal-mcp/register compiles TypeScript with SWC, which is not installed: `npm install --save-dev @swc/core`",
      );
    },
  );
  return swcLoaded;
}

const packageTypes = new Map<string, "module" | "commonjs">();

/** `.mts` is ESM, `.cts` CommonJS, `.ts` as the nearest package.json's `type` says (as Node decides for `.js`). */
function formatOf(filename: string): "module" | "commonjs" {
  if (/\.mtsx?$/.test(filename)) return "module";
  if (/\.ctsx?$/.test(filename)) return "commonjs";
  return packageType(dirname(filename));
}

function packageType(dir: string): "module" | "commonjs" {
  const known = packageTypes.get(dir);
  if (known) return known;
  const manifest = join(dir, "package.json");
  let type: "module" | "commonjs";
  if (existsSync(manifest)) {
    const pkg: { type?: string } = JSON.parse(readFileSync(manifest, "utf8"));
    type = pkg.type === "module" ? "module" : "commonjs";
  } else {
    const parent = dirname(dir);
    type = parent === dir ? "commonjs" : packageType(parent);
  }
  packageTypes.set(dir, type);
  return type;
}
