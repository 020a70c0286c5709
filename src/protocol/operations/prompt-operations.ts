import { GetPromptRequestSchema, ListPromptsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import type { AppRuntime } from "../app-runtime.js";
import { callerOf } from "../calls/caller.js";
import type { RunOperation } from "../calls/run-operation.js";
import { pageOfList } from "./list-pages.js";
import { operation, type ProtocolOperation } from "./operation.js";

/** `prompts/list` (paginated, the prompts the caller may see) and `prompts/get`. */
export function promptOperations(runtime: AppRuntime, run: RunOperation): ProtocolOperation[] {
  const { catalogue } = runtime;
  return [
    operation(ListPromptsRequestSchema, async (session, request, extra) => {
      const prompts = await catalogue.visible(
        runtime.registry.prompts.values(),
        callerOf(runtime, session, extra),
      );
      const listings = prompts.map((prompt) => prompt.definition.listing);
      const page = pageOfList(listings, request.params?.cursor, runtime.listPageSize, "prompts/list");
      return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }),
    operation(GetPromptRequestSchema, async (session, request, extra) => {
      const prompt = runtime.registry.prompts.get(request.params.name);
      // A hidden or disabled prompt is refused exactly as a name nobody declared.
      if (!prompt || !(await catalogue.admits(prompt.definition, callerOf(runtime, session, extra)))) {
        throw invalidParams(
          `Unknown prompt "${request.params.name}". Call prompts/list to see the available prompts.`,
        );
      }
      return await run(session, prompt, request.params.arguments ?? {}, extra);
    }),
  ];
}
