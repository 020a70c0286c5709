// Every relative link in the README, the guides under docs/ and the other top-level documents
// points at a file that exists, and every `#anchor` at a heading of its target, so moving a
// section never leaves a reader at a dead end.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const topLevel = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "RELIABILITY.md", "CHANGELOG.md"];
const documents = [
  ...topLevel.map((name) => join(root, name)),
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(root, "docs", name)),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    const heading = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    anchors.add(slug);
  }
  return anchors;
}

/** Markdown links outside fenced code: `[text](target)`, without external URLs. */
function relativeLinksOf(markdown: string): string[] {
  const links: string[] = [];
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    if (inFence) continue;
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1];
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

describe("documentation links", () => {
  for (const document of documents) {
    it(`${relative(root, document)}: every relative link resolves`, () => {
      const markdown = readFileSync(document, "utf8");
      const broken: string[] = [];
      for (const link of relativeLinksOf(markdown)) {
        const [path, anchor] = link.split("#");
        const target = path === "" ? document : join(dirname(document), path);
        if (!existsSync(target)) {
          broken.push(`${link} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith(".md") && !anchorsOf(readFileSync(target, "utf8")).has(anchor)) {
          broken.push(`${link} (no heading "${anchor}")`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
