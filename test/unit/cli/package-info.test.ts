import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { caretRange, ownPackage, type PackageInfo } from "../../../src/cli/package-info.js";

const repository = join(import.meta.dirname, "..", "..", "..");
const manifest = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};
const scratch = mkdtempSync(join(tmpdir(), "frugal-package-info-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("ownPackage", () => {
  it("finds frugal-mcp's own package.json above a module of it, with its version and dependency versions", () => {
    const found = ownPackage(pathToFileURL(join(repository, "src", "cli", "package-info.ts")).href);
    expect(found.root).toBe(repository);
    expect(found.version).toBe(manifest.version);
    expect(found.versions.vitest).toBe(manifest.devDependencies.vitest);
  });

  it("skips another package's manifest on the way up, and fails clearly when there is none", () => {
    const nested = join(scratch, "other", "lib");
    mkdirSync(nested, { recursive: true });
    writeFileSync(
      join(scratch, "other", "package.json"),
      JSON.stringify({ name: "not-frugal", version: "1.0.0" }),
    );
    const from = pathToFileURL(join(nested, "x.js")).href;
    expect(() => ownPackage(from)).toThrow(`frugal-mcp: no package.json of frugal-mcp above ${from}`);
  });
});

describe("caretRange", () => {
  const pkg: PackageInfo = {
    root: "/",
    version: "1.0.0",
    versions: { zod: "4.1.0", typescript: "^7.0.0-beta" },
  };
  it("turns an exact version into a caret range, keeps a range, and falls back for an unknown package", () => {
    expect(caretRange(pkg, "zod", "^4.0.0")).toBe("^4.1.0");
    expect(caretRange(pkg, "typescript", "^7.0.0")).toBe("^7.0.0-beta");
    expect(caretRange(pkg, "vitest", "^4.0.0")).toBe("^4.0.0");
  });
});
