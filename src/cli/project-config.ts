import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { CliError } from "./cli-error.js";

/** A TypeScript project as `dev` and `inspect` compile it, read through its own `tsc`. */
export interface TsProject {
  /** The project's own compiler (`node_modules/typescript`'s `tsc` script). */
  readonly tsc: string;
  /** The tsconfig file compiled (`tsconfig.build.json` when there is one). */
  readonly configFile: string;
  /** Where the JavaScript goes. */
  readonly outDir: string;
  /** The folders whose changes trigger a rebuild, and whether to watch them recursively. */
  readonly watch: readonly { readonly dir: string; readonly recursive: boolean }[];
  /** The roots tsc may have mirrored the sources from, most likely first. */
  readonly rootDirs: readonly string[];
}

/**
 * Reads the project in `cwd` with the project's own TypeScript (`tsc --showConfig`, which
 * resolves `extends` and comments): the options of `project`, else of `tsconfig.build.json`
 * when present, else of `tsconfig.json`.
 *
 * @example
 * ```ts
 * const project = readProject(process.cwd());
 * outputOf(project, "src/main.ts"); // "/…/dist/main.js", once built
 * ```
 */
export function readProject(cwd: string, project?: string): TsProject {
  const tsc = findTsc(cwd);
  const configFile = resolve(
    cwd,
    project ?? (existsSync(join(cwd, "tsconfig.build.json")) ? "tsconfig.build.json" : "tsconfig.json"),
  );
  if (!existsSync(configFile)) throw new CliError(`no ${relative(cwd, configFile)} in ${cwd}`);
  const shown = spawnSync(process.execPath, [tsc, "-p", configFile, "--showConfig"], {
    cwd,
    encoding: "utf8",
  });
  let config: { compilerOptions?: Record<string, unknown>; files?: string[] };
  try {
    config = JSON.parse(shown.stdout);
  } catch {
    throw new CliError(
      `tsc --showConfig -p ${relative(cwd, configFile)} failed:\n${shown.stdout}${shown.stderr}`,
    );
  }
  const configDir = dirname(configFile);
  const options = config.compilerOptions ?? {};
  if (options.noEmit === true || typeof options.outDir !== "string")
    throw new CliError(
      `${relative(cwd, configFile)} must write JavaScript to an outDir (and not set noEmit): frugal-mcp runs what tsc writes`,
    );
  const outDir = resolve(configDir, options.outDir);
  const sources = (config.files ?? [])
    .map((file) => resolve(configDir, file))
    .filter((file) => !file.includes(`${sep}node_modules${sep}`));
  // TypeScript 6+ mirrors the sources from the config's folder when rootDir is unset; older
  // versions from the sources' common folder. Both are tried, rootDir first.
  const rootDirs = [
    ...(typeof options.rootDir === "string" ? [resolve(configDir, options.rootDir)] : []),
    configDir,
    commonDir(sources) ?? configDir,
  ];
  return { tsc, configFile, outDir, watch: watchedDirs(configDir, sources, outDir), rootDirs };
}

/**
 * The compiled file of `entry` (a source path, relative to `cwd` or absolute), once tsc has
 * written it; undefined when none of the candidate places has it.
 */
export function outputOf(project: TsProject, entry: string, cwd = process.cwd()): string | undefined {
  const source = resolve(cwd, entry);
  const js = (path: string) =>
    path
      .replace(/\.mts$/, ".mjs")
      .replace(/\.cts$/, ".cjs")
      .replace(/\.tsx?$/, ".js");
  for (const root of project.rootDirs) {
    const rel = relative(root, source);
    if (rel.startsWith("..")) continue;
    const candidate = js(join(project.outDir, rel));
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The project's own `tsc` script, so the compiler is the version the project pins. */
function findTsc(cwd: string): string {
  const require = createRequire(join(cwd, "package.json"));
  let manifest: string;
  try {
    manifest = require.resolve("typescript/package.json");
  } catch {
    throw new CliError(`no TypeScript in ${cwd}: install it with \`npm install --save-dev typescript\``);
  }
  const typescript: { bin?: { tsc?: string } } = JSON.parse(readFileSync(manifest, "utf8"));
  const bin = typescript.bin?.tsc ?? "bin/tsc";
  return join(dirname(manifest), bin);
}

/**
 * The config's folder shallowly (the tsconfig files, sources at the top), and each top-level
 * folder holding sources recursively: never the whole project, whose node_modules would cost
 * a watch per folder.
 */
function watchedDirs(configDir: string, sources: readonly string[], outDir: string) {
  const tops = new Set<string>();
  for (const file of sources) {
    const [first, ...rest] = relative(configDir, file).split(sep);
    if (first === undefined || first === ".." || rest.length === 0) continue;
    if (resolve(configDir, first) !== outDir) tops.add(resolve(configDir, first));
  }
  return [{ dir: configDir, recursive: false }, ...[...tops].map((dir) => ({ dir, recursive: true }))];
}

function commonDir(files: readonly string[]): string | undefined {
  if (files.length === 0) return undefined;
  let common = dirname(files[0] as string);
  for (const file of files) {
    while (relative(common, file).startsWith("..")) common = dirname(common);
  }
  return common;
}
