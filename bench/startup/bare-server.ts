// Cold-start contender (a): the bare SDK, an `McpServer` with one tool, over stdio.
import "./rss-probe.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const notes = [{ id: "welcome", title: "Welcome", body: "Hello" }];
const server = new McpServer({ name: "notes", version: "1.0.0" });
server.registerTool(
  "list_notes",
  { description: "List notes", inputSchema: { tag: z.string().optional() } },
  () => ({
    content: [
      { type: "text", text: JSON.stringify({ notes: notes.map(({ id, title }) => ({ id, title })) }) },
    ],
  }),
);
await server.connect(new StdioServerTransport());
