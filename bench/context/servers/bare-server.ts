import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { formatLine } from "../data.js";
import type { IssueStore, LogStore } from "../stores.js";

/** What hosts cut a large tool result at (contender 2). */
export const CAP_BYTES = 100_000;

/** `since`/`until` as an ISO time or epoch milliseconds. */
const time = z.union([z.string(), z.number()]).optional();

/**
 * Contenders 1 and 2: a server written with the bare SDK, as a first version usually is:
 * the same tools and filters as the frugal-mcp server, each answering its whole result as
 * minified JSON text: no pages, no projection, no budget. With `capBytes`, every result's
 * text is cut at that many bytes and says so, as hosts cut large tool results.
 */
export function bareServer(issues: IssueStore, logs: LogStore, capBytes?: number): McpServer {
  const server = new McpServer({ name: capBytes ? "bare-capped" : "bare", version: "1.0.0" });
  const answer = (value: unknown): CallToolResult => {
    let text = JSON.stringify(value);
    if (capBytes !== undefined && Buffer.byteLength(text) > capBytes) {
      const bytes = Buffer.byteLength(text);
      text = `${Buffer.from(text).subarray(0, capBytes).toString()}\n[result cut at ${capBytes} of ${bytes} bytes]`;
    }
    return { content: [{ type: "text", text }] };
  };

  server.registerTool(
    "get_issue",
    { description: "One issue by id.", inputSchema: { id: z.number().int().min(1) } },
    ({ id }) => {
      const issue = issues.get(id);
      return issue ? answer(issue) : { content: [{ type: "text", text: `No issue ${id}.` }], isError: true };
    },
  );
  const filters = {
    state: z.enum(["open", "closed"]).optional(),
    label: z.string().optional(),
  };
  server.registerTool(
    "list_issues",
    { description: "Issues, most recently updated first. Filter by state and label.", inputSchema: filters },
    ({ state, label }) => answer(issues.newest(state, label)),
  );
  server.registerTool(
    "export_issues",
    { description: "Every issue matching the filters, whole, by id.", inputSchema: filters },
    ({ state, label }) => answer(issues.byId(state, label)),
  );
  server.registerTool(
    "search_logs",
    {
      description: "Log lines containing some text (case-sensitive), oldest first.",
      inputSchema: { query: z.string().min(1) },
    },
    ({ query }) => answer(logs.search(query, formatLine).map(asJson)),
  );
  server.registerTool(
    "tail_logs",
    {
      description: "Log lines with since < at <= until (ISO times or epoch ms, both optional), oldest first.",
      inputSchema: { since: time, until: time },
    },
    ({ since, until }) => answer(logs.range(epochMs(since), epochMs(until)).map(asJson)),
  );
  return server;
}

function asJson(line: { seq: number; at: number; level: string; service: string; message: string }) {
  return { ...line, at: new Date(line.at).toISOString() };
}

function epochMs(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  return typeof value === "number" ? value : Date.parse(value);
}
