import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { OperationDefinition } from "../builder/definitions.js";
import type { Operation } from "../builder/registry.js";
import { invalidParams } from "../errors/protocol-errors.js";
import type { CompleteCallback } from "../metadata/definitions.js";
import type { Invocation } from "../pipeline/invocation.js";
import type { AppRuntime } from "./app-runtime.js";
import { CallContext, type RequestExtra } from "./call-context.js";
import { pageOfList } from "./list-pages.js";
import { ownerOf } from "./owner.js";
import { installResourceHandlers } from "./resource-handlers.js";
import type { Session } from "./session.js";

/** Runs one operation for one request of one session, tracked so `app.close()` can drain it. */
export type RunOperation = (
  session: Session,
  operation: Operation<OperationDefinition>,
  args: Record<string, unknown>,
  extra: RequestExtra,
  uri?: string,
) => Promise<unknown>;

/**
 * The one place that talks to the SDK server: installs every request handler on a
 * session's own low-level `Server`. List contents are computed once per app and shared.
 */
export function createRegistrar(runtime: AppRuntime) {
  const { registry } = runtime;
  const toolListings = [...registry.tools.values()].map((o) => o.definition.listing);
  const promptListings = [...registry.prompts.values()].map((o) => o.definition.listing);

  const run: RunOperation = (session, operation, args, extra, uri) => {
    const owner = ownerOf(runtime, session, extra);
    const { definition } = operation;
    const name = definition.kind === "resource" ? definition.uri : definition.name;
    if (extra.authInfo) session.principals.add(owner);
    const ctx = new CallContext(session, extra, owner, runtime.events, name, runtime.ephemeral);
    const invocation: Invocation = { definition, args, input: undefined, ctx, uri };
    const pending = operation.execute(invocation);
    session.inFlight.add(pending);
    const forget = () => session.inFlight.delete(pending);
    pending.then(forget, forget);
    return pending;
  };

  return function install(session: Session): void {
    const { server } = session;

    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const page = pageOfList(toolListings, request.params?.cursor, runtime.listPageSize, "tools/list");
      return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const operation = registry.tools.get(request.params.name);
      if (!operation) {
        throw invalidParams(
          `Unknown tool "${request.params.name}". Call tools/list to see the available tools.`,
        );
      }
      return (await run(session, operation, request.params.arguments ?? {}, extra)) as never;
    });

    server.setRequestHandler(ListPromptsRequestSchema, (request) => {
      const page = pageOfList(promptListings, request.params?.cursor, runtime.listPageSize, "prompts/list");
      return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const operation = registry.prompts.get(request.params.name);
      if (!operation) {
        throw invalidParams(
          `Unknown prompt "${request.params.name}". Call prompts/list to see the available prompts.`,
        );
      }
      return (await run(session, operation, request.params.arguments ?? {}, extra)) as never;
    });

    server.setRequestHandler(CompleteRequestSchema, async (request) => {
      const { ref, argument, context } = request.params;
      let callback: CompleteCallback | undefined;
      if (ref.type === "ref/prompt") {
        const prompt = registry.prompts.get(ref.name);
        if (!prompt) throw invalidParams(`Unknown prompt "${ref.name}".`);
        callback = prompt.definition.complete[argument.name];
      } else {
        const template = registry.templates.find(
          (t) => t.definition.uri === ref.uri || t.definition.template?.template === ref.uri,
        );
        if (!template && !registry.staticResources.has(ref.uri)) {
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

    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      session.logLevel = request.params.level;
      return {};
    });

    installResourceHandlers(session, runtime, run);
  };
}
