import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import type { AppRuntime } from "../app-runtime.js";
import type { RunOperation } from "../calls/run-operation.js";
import { pageOfList } from "./list-pages.js";
import { operation, type ProtocolOperation } from "./operation.js";

/** `tools/list` (paginated) and `tools/call`. */
export function toolOperations(
  runtime: AppRuntime,
  run: RunOperation,
  listings: readonly Tool[],
): ProtocolOperation[] {
  return [
    operation(ListToolsRequestSchema, (_session, request) => {
      // A listing starts without a cursor: its whole view is counted once per walk.
      if (request.params?.cursor === undefined) runtime.metrics.catalogue.served(listings);
      const page = pageOfList(listings, request.params?.cursor, runtime.listPageSize, "tools/list");
      return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }),
    // Not async: the SDK awaits the call's own promise (and turns a throw into an error answer).
    operation(CallToolRequestSchema, (session, request, extra) => {
      const tool = runtime.registry.tools.get(request.params.name);
      if (!tool) {
        throw invalidParams(
          `Unknown tool "${request.params.name}". Call tools/list to see the available tools.`,
        );
      }
      return run(session, tool, request.params.arguments ?? {}, extra);
    }),
  ];
}
