import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);

/** Every name `export { … } from` exports in a file (types included, aliases resolved). */
function exportedNames(file: string): string[] {
  const text = readFileSync(new URL(file, root), "utf8").replace(/\/\/.*$/gm, "");
  const names = new Set<string>();
  for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from/g)) {
    for (const raw of (match[1] ?? "").split(",")) {
      const part = raw.trim().replace(/^type\s+/, "");
      if (part) names.add((part.split(/\s+as\s+/).pop() ?? part).trim());
    }
  }
  return [...names].sort();
}

/** The backticked names of the README's "Public API" section. */
function documentedNames(): string[] {
  const readme = readFileSync(new URL("README.md", root), "utf8");
  const section = readme.split("\n## Public API\n")[1]?.split("\n## ")[0] ?? "";
  const list = section.slice(section.indexOf("\n- "));
  return [...new Set([...list.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1] as string))].sort();
}

describe("public API", () => {
  it("the README's list is exactly what src/index.ts exports", () => {
    expect(documentedNames()).toEqual(exportedNames("src/index.ts"));
  });

  it("exports no pipeline internals", () => {
    const names = exportedNames("src/index.ts");
    for (const internal of [
      "PIPELINE_ORDER",
      "Stage",
      "Next",
      "Invocation",
      "Page",
      "EphemeralResources",
      "encodeContent",
      "readSlice",
      "UriTemplate",
    ]) {
      expect(names).not.toContain(internal);
    }
  });

  it("frugal-mcp/testing and frugal-mcp/s3 export what the README says", async () => {
    expect(exportedNames("src/testing/index.ts")).toEqual([
      "ListedTool",
      "TestClient",
      "TestClientOptions",
      "ToolLister",
      "catalogueOf",
      "createTestClient",
      "tokensOf",
    ]);
    expect(exportedNames("src/s3/index.ts")).toEqual(["S3ClientLike", "S3Storage", "S3StorageOptions"]);
    const testing = await import("frugal-mcp/testing");
    expect(typeof testing.createTestClient).toBe("function");
  });
});
