import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  type Prompt,
} from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import type { AppRuntime } from "../app-runtime.js";
import { pageOfList } from "../list-pages.js";
import type { RunOperation } from "../run-operation.js";
import type { Session } from "../session.js";
import { clearParams } from "./clear-params.js";

/** Installs `prompts/list` (paginated) and `prompts/get` on one session's server. */
export function installPromptHandlers(
  session: Session,
  runtime: AppRuntime,
  run: RunOperation,
  listings: readonly Prompt[],
): void {
  const { server } = session;
  server.setRequestHandler(clearParams(ListPromptsRequestSchema), (request) => {
    const page = pageOfList(listings, request.params?.cursor, runtime.listPageSize, "prompts/list");
    return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  server.setRequestHandler(clearParams(GetPromptRequestSchema), async (request, extra) => {
    const operation = runtime.registry.prompts.get(request.params.name);
    if (!operation) {
      throw invalidParams(
        `Unknown prompt "${request.params.name}". Call prompts/list to see the available prompts.`,
      );
    }
    return (await run(session, operation, request.params.arguments ?? {}, extra)) as never;
  });
}
