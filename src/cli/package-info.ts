import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What the CLI knows of the frugal-mcp package it runs from. */
export interface PackageInfo {
  /** The package's folder (the one holding its package.json). */
  readonly root: string;
  /** Its version, which `create` writes as the new project's `frugal-mcp` dependency. */
  readonly version: string;
  /** Every version its package.json names: dependencies, then peers, then dev (the tested ones). */
  readonly versions: Readonly<Record<string, string>>;
}

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * frugal-mcp's own package.json, found by walking up from this module: it runs bundled from
 * `dist/cli/` in the package and from `src/cli/` in the repository's tests.
 *
 * @example
 * ```ts
 * ownPackage().version; // "0.1.0"
 * ```
 */
export function ownPackage(from: string = import.meta.url): PackageInfo {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg: PackageJson = JSON.parse(readFileSync(file, "utf8"));
      if (pkg.name === "frugal-mcp" && pkg.version) {
        // Later entries win: a devDependency is the exact version the repository tests with.
        const versions = { ...pkg.peerDependencies, ...pkg.dependencies, ...pkg.devDependencies };
        return { root: dir, version: pkg.version, versions };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`frugal-mcp: no package.json of frugal-mcp above ${from}`);
    dir = parent;
  }
}

/**
 * The range a new project asks for: `^x.y.z` for an exact version the package tests with,
 * the package's own range otherwise, `fallback` when it names none.
 *
 * @example
 * ```ts
 * caretRange(ownPackage(), "typescript", "^7.0.0"); // "^7.0.2"
 * ```
 */
export function caretRange(pkg: PackageInfo, name: string, fallback: string): string {
  const declared = pkg.versions[name];
  if (declared === undefined) return fallback;
  return /^\d+\.\d+\.\d+$/.test(declared) ? `^${declared}` : declared;
}
