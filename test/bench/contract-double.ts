/**
 * A double of frugal-mcp as DESIGN.md's "Lean answers" and "Aggregates and queries"
 * describe it once built: `limit: 0`, `tail`, `aggregate`, `query_resource`,
 * `search_resource` with `count`, `whole`/`fields` and match windows, `read_resource` by
 * `path`. Written with the bare SDK, only so that the context bench's agents can be checked
 * to take those ways and answer correctly before the features land (their answers'
 * shapes are the contract's; everything else is kept minimal).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { formatLine, type Issue, type LogLine } from "../../bench/context/data.js";
import type { ServerFactory } from "../../bench/context/run.js";

export interface DoubleOptions {
  /** Offer `query_resource` (else the titles are found with `search_resource`'s count and fields). */
  queryResource: boolean;
  /** Characters of context each side of a `search_resource` match (contract default 80). */
  context: number;
}

const answer = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
});

/** A server factory for `runContextBench({ servers: { frugal: contractDouble(…) } })`. */
export function contractDouble(options: DoubleOptions): ServerFactory {
  return async ({ issues, logs, clock }, transport) => {
    const server = new McpServer({ name: "contract-double", version: "1.0.0" });
    const stored = new Map<string, unknown>();
    const store = (tool: string, value: unknown): CallToolResult => {
      const uri = `ephemeral://${tool}/${String(stored.size).padStart(22, "A")}`;
      stored.set(uri, value);
      return {
        content: [
          { type: "resource_link", uri, name: tool },
          { type: "text", text: `Stored as ${uri}.` },
        ],
      };
    };
    const filters = { state: z.enum(["open", "closed"]).optional(), label: z.string().optional() };

    server.registerTool(
      "get_issue",
      { inputSchema: { id: z.number().int(), fields: z.array(z.string()).optional() } },
      ({ id, fields }) => {
        const issue = issues.get(id) as Issue;
        const picked = Object.fromEntries(
          (fields ?? ["id", "title"]).map((f) => [f, issue[f as keyof Issue]]),
        );
        return JSON.stringify(picked).length > 8000 ? store("get_issue", picked) : answer(picked);
      },
    );

    server.registerTool(
      "list_issues",
      {
        inputSchema: {
          ...filters,
          cursor: z.string().optional(),
          limit: z.number().int().min(0).max(100).optional(),
          fields: z.array(z.string()).optional(),
          aggregate: z
            .object({
              count: z.literal(true).optional(),
              groupBy: z.string().optional(),
              sum: z.string().optional(),
            })
            .optional(),
        },
      },
      ({ state, label, cursor, limit, fields, aggregate }) => {
        const all = issues.newest(state, label);
        if (limit === 0) return answer({ total: all.length });
        if (aggregate) {
          const groups = new Map<string, { key: Record<string, unknown>; count: number; sum?: number }>();
          for (const issue of all) {
            const keys = aggregate.groupBy
              ? ([] as unknown[]).concat(issue[aggregate.groupBy as keyof Issue])
              : [undefined];
            for (const value of keys) {
              const key = aggregate.groupBy ? { [aggregate.groupBy]: value } : {};
              const group = groups.get(JSON.stringify(key)) ?? { key, count: 0 };
              group.count++;
              if (aggregate.sum) group.sum = (group.sum ?? 0) + Number(issue[aggregate.sum as keyof Issue]);
              groups.set(JSON.stringify(key), group);
            }
          }
          return answer({ groups: [...groups.values()], total: all.length, scanned: all.length });
        }
        const from = Number(cursor ?? 0);
        const size = limit ?? 20;
        const items = all
          .slice(from, from + size)
          .map((i) => Object.fromEntries((fields ?? ["id"]).map((f) => [f, i[f as keyof Issue]])));
        const more = from + size < all.length;
        return answer({
          items,
          nextCursor: more ? String(from + size) : null,
          hasMore: more,
          total: all.length,
        });
      },
    );

    server.registerTool("export_issues", { inputSchema: filters }, ({ state, label }) =>
      store("export_issues", issues.byId(state, label)),
    );

    server.registerTool("search_logs", { inputSchema: { query: z.string() } }, ({ query }) => {
      const lines = logs.search(query, formatLine).map(formatLine);
      return lines.length > 20
        ? store("search_logs", lines.join("\n"))
        : { content: [{ type: "text", text: lines.join("\n") }] };
    });

    server.registerTool(
      "tail_logs",
      {
        inputSchema: {
          since: z.number().optional(),
          until: z.number().optional(),
          tail: z.number().int().min(1).optional(),
          limit: z.number().int().min(1).optional(),
          cursor: z.string().optional(),
        },
      },
      ({ since, until, tail, limit, cursor }) => {
        const end = Math.min(until ?? clock.now(), clock.now());
        let lines: LogLine[];
        if (tail !== undefined) lines = logs.range(null, end).slice(-tail);
        else {
          const window = logs.range(
            since ?? end - 300_000,
            Math.min(end, (since ?? end - 300_000) + 300_000),
          );
          lines = window.slice(Number(cursor ?? 0), Number(cursor ?? 0) + (limit ?? 50));
          const next = Number(cursor ?? 0) + lines.length;
          if (next < window.length)
            return answer({ items: lines.map(json), nextCursor: String(next), hasMore: true });
        }
        return answer({ items: lines.map(json), nextCursor: null, hasMore: false, nextSince: end });
      },
    );

    server.registerTool(
      "read_resource",
      {
        inputSchema: {
          uri: z.string(),
          index: z.number().int().optional(),
          path: z.string().optional(),
          offset: z.number().int().optional(),
          limit: z.number().int().optional(),
        },
      },
      ({ uri, index, path, offset = 0, limit = 50 }) => {
        const value = stored.get(uri);
        if (path !== undefined) {
          const root = index === undefined ? value : (value as unknown[])[index];
          const text = String((root as Record<string, unknown>)[path.slice(1)]);
          const end = Math.min(text.length, offset + limit);
          return answer({ text: text.slice(offset, end), offset, nextOffset: end, totalChars: text.length });
        }
        const entries = Array.isArray(value) ? value : String(value).split("\n");
        const slice = entries.slice(offset, offset + limit);
        const more = offset + limit < entries.length;
        const key = Array.isArray(value) ? "items" : "lines";
        return answer({
          [key]: slice,
          nextOffset: more ? offset + limit : null,
          hasMore: more,
          total: entries.length,
        });
      },
    );

    server.registerTool(
      "search_resource",
      {
        inputSchema: {
          uri: z.string(),
          pattern: z.string(),
          regex: z.boolean().optional(),
          count: z.boolean().optional(),
          whole: z.boolean().optional(),
          fields: z.array(z.string()).optional(),
          context: z.number().int().optional(),
          limit: z.number().int().optional(),
        },
      },
      ({ uri, pattern, regex, count, whole, fields, limit = 100 }) => {
        const value = stored.get(uri);
        const test = (text: string) => (regex ? new RegExp(pattern).test(text) : text.includes(pattern));
        if (Array.isArray(value)) {
          const hits = value
            .map((item, index) => ({ item, index }))
            .filter((h) => test(JSON.stringify(h.item)));
          if (count) return answer({ count: hits.length });
          const project = (item: Record<string, unknown>) =>
            fields ? Object.fromEntries(fields.map((f) => [f, item[f]])) : item;
          if (whole)
            return answer({
              matches: hits.slice(0, limit).map((h) => ({ index: h.index, item: project(h.item) })),
            });
          throw new Error("the double answers windows into JSON objects and text only");
        }
        if (typeof value === "string") {
          const lines = value.split("\n");
          if (count) return answer({ count: lines.filter(test).length });
          throw new Error("the double counts text matches only");
        }
        const matches: unknown[] = [];
        for (const [field, text] of Object.entries(value as Record<string, unknown>)) {
          const at = typeof text === "string" ? text.indexOf(pattern) : -1;
          if (at < 0) continue;
          const from = Math.max(0, at - options.context);
          const window = (text as string).slice(from, at + pattern.length + options.context);
          matches.push({ path: `/${field}`, offset: at, text: window });
        }
        return answer({ matches: matches.slice(0, limit) });
      },
    );

    if (options.queryResource)
      server.registerTool(
        "query_resource",
        {
          inputSchema: {
            uri: z.string(),
            where: z.record(z.string(), z.unknown()).optional(),
            select: z.array(z.string()).optional(),
            limit: z.number().int().optional(),
          },
        },
        ({ uri, where, select, limit = 20 }) => {
          const [[field, condition]] = Object.entries(where ?? {}) as [[string, { $regex: string }]];
          const items = (stored.get(uri) as Issue[]).filter((i) =>
            new RegExp(condition.$regex).test(String(i[field as keyof Issue])),
          );
          const picked = items
            .slice(0, limit)
            .map((i) => Object.fromEntries((select ?? ["id"]).map((f) => [f, i[f as keyof Issue]])));
          return answer({ items: picked, total: items.length, hasMore: items.length > limit });
        },
      );

    await server.connect(transport);
    return server;
  };
}

function json(line: LogLine) {
  return { ...line, at: new Date(line.at).toISOString() };
}
