import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { CliError } from "./cli-error.js";
import { ownPackage, type PackageInfo } from "./package-info.js";
import { runToEnd } from "./processes.js";
import { projectFiles } from "./project-files.js";

/** Options of `frugal-mcp create`. */
interface CreateOptions {
  /** The new project's folder, relative to `cwd` or absolute. */
  readonly dir: string;
  /** The npm package name; the folder's name, made valid, by default. */
  readonly name?: string | undefined;
  /** Where npm gets frugal-mcp: a range, or a path to a tarball (`.tgz`), or a git URL. */
  readonly from?: string | undefined;
  /** Run `npm install` after writing (asked on a terminal when not given; never otherwise). */
  readonly install?: boolean | undefined;
  /** Write into a folder that is not empty (files of the same name are replaced). */
  readonly force?: boolean | undefined;
  readonly cwd: string;
  /** Whether a person is at a terminal to answer questions. */
  readonly interactive: boolean;
  /** Where the messages go. */
  readonly log: (line: string) => void;
  readonly pkg?: PackageInfo | undefined;
}

/**
 * `frugal-mcp create <dir>`: writes a working project into `dir` and says what to run next.
 * It asks one question (install now?) only on a terminal.
 *
 * @example
 * ```ts
 * await createProject({ dir: "demo", cwd: process.cwd(), interactive: false, log: console.log });
 * ```
 */
export async function createProject(options: CreateOptions): Promise<{ dir: string; files: string[] }> {
  const dir = resolve(options.cwd, options.dir);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new CliError(`${options.dir} exists and is not a folder`);
    if (readdirSync(dir).length > 0 && !options.force)
      throw new CliError(`${options.dir} is not empty: pick a new folder, or pass --force to write into it`);
  }
  const pkg = options.pkg ?? ownPackage();
  const name = options.name ?? packageName(basename(dir));
  const files = projectFiles({ name, frugalMcp: dependencySpec(options.from, pkg, options.cwd) }, pkg);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const shown = relative(options.cwd, dir) || ".";
  options.log(`Created ${name} in ${dir} (frugal-mcp ${pkg.version}):`);
  for (const path of Object.keys(files).sort()) options.log(`  ${path}`);

  const install = options.install ?? (options.interactive ? await confirm("Run npm install now?") : false);
  if (install) {
    options.log("");
    const code = await runToEnd("npm", ["install", "--no-fund", "--no-audit"], { cwd: dir });
    if (code !== 0) throw new CliError(`npm install failed (exit code ${code}) in ${dir}`);
  }
  options.log("");
  options.log("Next:");
  if (shown !== ".") options.log(`  cd ${/\s/.test(shown) ? JSON.stringify(shown) : shown}`);
  if (!install) options.log("  npm install");
  options.log("  npm run dev    # compiles with tsc, serves http://127.0.0.1:3000/mcp, restarts on change");
  options.log("  npm test       # type-checks, then runs the tests with createTestClient");
  return { dir, files: Object.keys(files) };
}

/** A valid npm package name from a folder name: `My Server` becomes `my-server`. */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name.slice(0, 214) || "mcp-server";
}

/**
 * The `frugal-mcp` dependency: `^<version of this CLI>` by default; a path to a tarball
 * becomes an absolute `file:` spec (so the project installs what a test just packed);
 * anything else (a range, a git URL) is used as given.
 */
export function dependencySpec(from: string | undefined, pkg: PackageInfo, cwd: string): string {
  if (from === undefined) return `^${pkg.version}`;
  const looksLikePath = /\.(tgz|tar\.gz)$/.test(from) || from.startsWith(".") || isAbsolute(from);
  if (looksLikePath && !from.startsWith("file:")) {
    const path = resolve(cwd, from);
    if (!existsSync(path)) throw new CliError(`--from ${from}: no such file (${path})`);
    return `file:${path}`;
  }
  return from;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`${question} [Y/n] `)).trim().toLowerCase();
    return answer === "" || answer === "y" || answer === "yes";
  } finally {
    rl.close();
  }
}
