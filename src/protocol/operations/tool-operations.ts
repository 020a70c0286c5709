import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import type { AppRuntime } from "../app-runtime.js";
import { callerOf } from "../calls/caller.js";
import type { RunOperation } from "../calls/run-operation.js";
import { pageOfList } from "./list-pages.js";
import { operation, type ProtocolOperation } from "./operation.js";

/** `tools/list` (paginated, the tools the caller may see) and `tools/call`. */
export function toolOperations(runtime: AppRuntime, run: RunOperation): ProtocolOperation[] {
  const { catalogue } = runtime;
  return [
    operation(ListToolsRequestSchema, async (session, request, extra) => {
      const tools = await catalogue.listedTools(callerOf(runtime, session, extra));
      const listings = tools.map((tool) => tool.definition.listing);
      // A listing starts without a cursor: the caller's whole view is counted once per walk.
      if (request.params?.cursor === undefined) runtime.metrics.catalogue.served(listings);
      const page = pageOfList(listings, request.params?.cursor, runtime.listPageSize, "tools/list");
      return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }),
    // Not async: the SDK awaits the call's own promise (and turns a throw into an error answer).
    operation(CallToolRequestSchema, (session, request, extra) => {
      const { name } = request.params;
      const tool = runtime.registry.tools.get(name);
      // A hidden or disabled tool is refused exactly as a name nobody declared.
      if (!tool) throw unknownTool(name);
      // Most tools exist for everyone: no caller is made for them.
      const admitted =
        catalogue.isOpen(tool.definition) ||
        catalogue.admits(tool.definition, callerOf(runtime, session, extra));
      const arguments_ = request.params.arguments ?? {};
      if (admitted === true) return run(session, tool, arguments_, extra);
      if (admitted === false) throw unknownTool(name);
      return admitted.then((ok) => {
        if (!ok) throw unknownTool(name);
        return run(session, tool, arguments_, extra);
      });
    }),
  ];
}

function unknownTool(name: string) {
  return invalidParams(`Unknown tool "${name}". Call tools/list to see the available tools.`);
}
