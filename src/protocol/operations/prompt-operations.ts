import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  type Prompt,
} from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import type { AppRuntime } from "../app-runtime.js";
import type { RunOperation } from "../calls/run-operation.js";
import { pageOfList } from "./list-pages.js";
import { operation, type ProtocolOperation } from "./operation.js";

/** `prompts/list` (paginated) and `prompts/get`. */
export function promptOperations(
  runtime: AppRuntime,
  run: RunOperation,
  listings: readonly Prompt[],
): ProtocolOperation[] {
  return [
    operation(ListPromptsRequestSchema, (_session, request) => {
      const page = pageOfList(listings, request.params?.cursor, runtime.listPageSize, "prompts/list");
      return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }),
    operation(GetPromptRequestSchema, async (session, request, extra) => {
      const prompt = runtime.registry.prompts.get(request.params.name);
      if (!prompt) {
        throw invalidParams(
          `Unknown prompt "${request.params.name}". Call prompts/list to see the available prompts.`,
        );
      }
      return await run(session, prompt, request.params.arguments ?? {}, extra);
    }),
  ];
}
