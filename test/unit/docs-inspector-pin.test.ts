// Every MCP Inspector command a reader copies (the README, the guides, the examples' READMEs and
// code, `npm start`'s banner) pins the Inspector's major version: an unpinned `npx` runs
// whatever copy npm has cached, and an old one (0.14 and older) has no `--header`.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { banner } from "../../examples/app/src/banner.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const INSPECTOR_MAJOR = 2;

function filesUnder(dir: string, extensions: readonly string[]): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => extensions.some((ext) => name.endsWith(ext)) && !name.includes("node_modules"))
    .map((name) => join(root, dir, name));
}

const sources = [
  join(root, "README.md"),
  ...filesUnder("docs", [".md"]),
  ...filesUnder("examples", [".md", ".ts"]),
];

/** The Inspector invocations in a text that do not name exactly `@modelcontextprotocol/inspector@<major>`. */
function unpinned(text: string): string[] {
  return [...text.matchAll(/@modelcontextprotocol\/inspector(@[\w.^~-]+)?/g)]
    .filter((match) => match[1] !== `@${INSPECTOR_MAJOR}`)
    .map((match) => match[0]);
}

describe("MCP Inspector commands", () => {
  it(`pin the Inspector to major version ${INSPECTOR_MAJOR} in the docs and examples`, () => {
    const found = sources.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return unpinned(text).map((command) => `${relative(root, file)}: ${command}`);
    });
    expect(found).toEqual([]);
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme).toContain(`npx -y @modelcontextprotocol/inspector@${INSPECTOR_MAJOR} --cli`);
    expect(readme).toMatch(/Node 22\.19 or newer/);
  });

  it("npm start's banner pins it and says which Node it needs", () => {
    const text = banner({
      url: "http://127.0.0.1:3000/mcp",
      backends: "SQLite",
      tools: [{ name: "list_articles", inputSchema: { type: "object" } }],
      resources: ["config://app"],
      mainPath: "/app/main.js",
      nodePath: "/usr/bin/node",
    });
    const commands = text.split("\n").filter((line) => line.includes("@modelcontextprotocol/inspector"));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) expect(unpinned(command)).toEqual([]);
    expect(text).toMatch(/Node 22\.19\+/);
    expect(text).toContain("--header");
  });
});
