import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import type { AppRuntime } from "../app-runtime.js";
import { pageOfList } from "../list-pages.js";
import type { RunOperation } from "../run-operation.js";
import type { Session } from "../session.js";
import { clearParams } from "./clear-params.js";

/** Installs `tools/list` (paginated) and `tools/call` on one session's server. */
export function installToolHandlers(
  session: Session,
  runtime: AppRuntime,
  run: RunOperation,
  listings: readonly Tool[],
): void {
  const { server } = session;
  server.setRequestHandler(clearParams(ListToolsRequestSchema), (request) => {
    const page = pageOfList(listings, request.params?.cursor, runtime.listPageSize, "tools/list");
    return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  // Not async: the SDK awaits the call's own promise (and turns a throw into an error answer).
  server.setRequestHandler(clearParams(CallToolRequestSchema), (request, extra) => {
    const operation = runtime.registry.tools.get(request.params.name);
    if (!operation) {
      throw invalidParams(
        `Unknown tool "${request.params.name}". Call tools/list to see the available tools.`,
      );
    }
    return run(session, operation, request.params.arguments ?? {}, extra) as never;
  });
}
