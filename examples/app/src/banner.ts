import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpApp } from "frugal-mcp";

/** What the app serves, as a client sees it (listed through an in-memory session). */
export async function servedOperations(app: McpApp): Promise<{ tools: Tool[]; resources: string[] }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  const client = new Client({ name: "banner", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    const { tools } = await client.listTools();
    const { resources } = await client.listResources();
    return { tools, resources: resources.map((r) => r.uri) };
  } finally {
    await client.close();
  }
}

/** What `npm start` prints: where it serves, what, and what to do next. */
export function banner(options: {
  url: string;
  backends: string;
  tools: readonly Tool[];
  resources: readonly string[];
  mainPath: string;
  /** The Node that runs this server: the stdio entry uses it too (a desktop client's PATH may find an older one). */
  nodePath: string;
}): string {
  const { url, tools } = options;
  const width = Math.max(...tools.map((t) => t.name.length));
  const toolLines = tools.map((t) => {
    const appOnly =
      (t._meta?.ui as { visibility?: string[] } | undefined)?.visibility?.includes("model") === false;
    const summary = firstSentence(t.description ?? "", 80);
    return `  ${t.name.padEnd(width)}  ${appOnly ? "(app-only) " : ""}${summary}`;
  });
  // One server a line: short enough to read, still valid JSON to paste.
  const desktop = [
    "{",
    '  "mcpServers": {',
    `    "frugal-flagship": ${JSON.stringify({ type: "http", url })},`,
    `    "frugal-flagship-stdio": ${JSON.stringify({ command: options.nodePath, args: [options.mainPath, "--stdio"] })}`,
    "  }",
    "}",
  ].join("\n");
  return [
    "",
    `frugal-mcp flagship serving Streamable HTTP on ${url}`,
    `  ${options.backends}`,
    "",
    `Tools (${tools.length}):`,
    ...toolLines,
    `Resources: ${options.resources.join(", ")}`,
    "",
    "Try it with the MCP Inspector CLI, major version 2 (needs Node 22.19+):",
    `  npx -y @modelcontextprotocol/inspector@2 --cli ${url} --transport http --method tools/list`,
    `  npx -y @modelcontextprotocol/inspector@2 --cli ${url} --transport http --method tools/call --tool-name list_articles --tool-arg site=tech`,
    'Writes (set_config, record_metric) need a token (demo only): add --header "Authorization: Bearer demo-admin"',
    "",
    "Desktop client configuration (add to its mcpServers; the stdio entry starts its own server):",
    desktop,
    "",
    "See what it saves: npm run demo (or npm run demo -- --html report.html). Stop: Ctrl+C.",
    "",
  ].join("\n");
}

/** The first sentence of a description, cut at a word before `max` characters. */
function firstSentence(text: string, max: number): string {
  const sentence = text.split(/(?<=\.)\s/)[0] ?? "";
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2))}…`;
}
