import { CompleteRequestSchema, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import type { CompleteCallback } from "../../metadata/definitions.js";
import type { AppRuntime } from "../app-runtime.js";
import { callerOf } from "../calls/caller.js";
import { operation, type ProtocolOperation } from "./operation.js";

/** `completion/complete` (prompt arguments and template variables) and `logging/setLevel`. */
export function utilityOperations(runtime: AppRuntime): ProtocolOperation[] {
  const { registry, catalogue } = runtime;
  const complete = operation(CompleteRequestSchema, async (session, request, extra) => {
    const { ref, argument, context } = request.params;
    const caller = callerOf(runtime, session, extra);
    let callback: CompleteCallback | undefined;
    // What the caller may not see completes as a name nobody declared.
    if (ref.type === "ref/prompt") {
      const prompt = registry.prompts.get(ref.name);
      if (!prompt || !(await catalogue.admits(prompt.definition, caller)))
        throw invalidParams(`Unknown prompt "${ref.name}".`);
      callback = prompt.definition.complete[argument.name];
    } else {
      const template = registry.templates.find(
        (t) => t.definition.uri === ref.uri || t.definition.template?.template === ref.uri,
      );
      const declared = template ?? registry.staticResources.get(ref.uri);
      if (!declared || !(await catalogue.admits(declared.definition, caller))) {
        throw invalidParams(`Unknown resource template "${ref.uri}".`);
      }
      callback = template?.definition.complete[argument.name];
    }
    const values = callback ? await callback(argument.value, { arguments: context?.arguments ?? {} }) : [];
    // The protocol caps a completion at 100 values and says when more exist.
    return {
      completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 },
    };
  });
  const setLevel = operation(SetLevelRequestSchema, async (session, request) => {
    session.logLevel = request.params.level;
    await session.persist?.({ logLevel: request.params.level });
    return {};
  });
  return [complete, setLevel];
}
