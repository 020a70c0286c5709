import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type DeclaredService, declareTool } from "../builder/declared-service.js";
import type { OperationCaller } from "../metadata/definitions.js";
import type { ToolContext } from "../pipeline/tool-context.js";
import type { Catalogue } from "./catalogue.js";

/** Tools `search_tools` answers when the caller names no `limit`. */
const DEFAULT_SEARCH_LIMIT = 5;
/** The most tools one search answers. */
const MAX_SEARCH_LIMIT = 20;

const searchToolsInput = z.object({
  query: z
    .string()
    .trim()
    .min(1, "query must name what the tool should do")
    .describe("What the tool should do"),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`Default ${DEFAULT_SEARCH_LIMIT}`),
});

/** The built-in `search_tools` of an app under `catalogue: { search: true }`. */
export class SearchTools {
  constructor(
    private readonly catalogue: Catalogue,
    /** The caller of a running call, as lists see it (the protocol layer knows it). */
    private readonly callerOf: (ctx: ToolContext) => OperationCaller,
  ) {}

  async searchTools(
    { query, limit }: z.output<typeof searchToolsInput>,
    ctx: ToolContext,
  ): Promise<{ tools: Tool[] }> {
    return { tools: await this.catalogue.search(query, limit ?? DEFAULT_SEARCH_LIMIT, this.callerOf(ctx)) };
  }
}

/**
 * `search_tools`, declared as data: it answers the full definitions of the tools matching a
 * query, best first, as JSON (definitions do not read better as a table).
 */
export function searchToolsService(tools: SearchTools, name: string): DeclaredService {
  return {
    serviceClass: SearchTools,
    instance: tools,
    members: [
      declareTool(SearchTools, "searchTools", {
        name,
        description:
          "Find this server's other tools by what they do. Answers the best matches' definitions; call a tool by its name.",
        input: searchToolsInput,
        annotations: { readOnlyHint: true },
        text: "json",
      }),
    ],
  };
}
