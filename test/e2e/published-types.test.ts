import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

// The declarations users compile against (dist/, written by `npm run build`; `npm test` builds
// first). A user project compiles every declaration file its imports reach, unless it sets
// `skipLibCheck`; one that imports an optional peer dependency the user has not installed
// fails with TS2307. scripts/tarball-test.sh proves it on a real install; this is the quick check.
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  exports: Record<string, { types?: string } | string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const OPTIONAL_PEERS = Object.entries(pkg.peerDependenciesMeta)
  .filter(([, meta]) => meta.optional)
  .map(([name]) => name);

/** The module specifiers a declaration file imports (comments dropped: JSDoc examples are not imports). */
function specifiersOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  const patterns = [
    /\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\bimport\s*["']([^"']+)["']/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1] as string));
}

/** Every declaration file reachable from `entry`, with the bare specifiers each imports. */
function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = [normalize(entry)];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    const specifiers = specifiersOf(readFileSync(file, "utf8"));
    seen.set(
      file,
      specifiers.filter((s) => !s.startsWith(".")),
    );
    for (const s of specifiers.filter((s) => s.startsWith("."))) {
      const target = normalize(join(dirname(file), s.replace(/\.js$/, ".d.ts")));
      if (!existsSync(target)) throw new Error(`${file} imports ${s}, but ${target} does not exist`);
      queue.push(target);
    }
  }
  return seen;
}

/**
 * The one entry that exists for an optional peer may import that peer, and no other: a user
 * imports `frugal-mcp/testing/vitest` only where vitest is installed.
 */
const ENTRY_PEERS: Record<string, readonly string[]> = { "./testing/vitest": ["vitest"] };

describe("published types (dist/*.d.ts)", () => {
  it("no declaration reachable from a public entry imports an optional peer dependency (but its own)", () => {
    if (!existsSync("dist/index.d.ts"))
      throw new Error("dist/ is missing: run `npm run build` (npm test does it)");
    expect(OPTIONAL_PEERS).toContain("@modelcontextprotocol/server");
    const offending: string[] = [];
    let files = 0;
    const ownPeerImports: string[] = [];
    for (const [entry, target] of Object.entries(pkg.exports)) {
      const types = typeof target === "string" ? undefined : target.types;
      if (!types) continue;
      const own = ENTRY_PEERS[entry] ?? [];
      for (const [file, bare] of reachable(types)) {
        files++;
        for (const specifier of bare) {
          const peer = OPTIONAL_PEERS.find((p) => specifier === p || specifier.startsWith(`${p}/`));
          if (peer === undefined) continue;
          if (own.includes(peer)) ownPeerImports.push(`${entry}: ${specifier}`);
          else offending.push(`${file} imports ${specifier}`);
        }
      }
    }
    expect(files).toBeGreaterThan(10);
    expect(offending).toEqual([]);
    // The vitest entry does import vitest: its matchers augment vitest's own types.
    expect(ownPeerImports).toContain("./testing/vitest: vitest");
  });
});
