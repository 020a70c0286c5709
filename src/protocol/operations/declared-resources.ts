import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Operation, Registry } from "../../builder/registry.js";
import type { DeclaredResourceReader } from "../../ephemeral/resource-tools.js";
import { Paginated } from "../../pagination/paginated.capability.js";
import { specOf } from "../../pipeline/capability.js";
import { newInvocation } from "../../pipeline/invocation.js";
import type { ResourceDefinition } from "../../pipeline/operation.js";
import type { ToolContext } from "../../pipeline/tool-context.js";
import { asReadResult } from "../../sdk/sdk1-adapter.js";
import { CallContext } from "../calls/call-context.js";

/** The declared resource that serves `uri` (an exact static URI first, then templates in order), with its variables. */
export function findDeclaredResource(
  registry: Registry,
  uri: string,
): { operation: Operation<ResourceDefinition>; args: Record<string, unknown> } | undefined {
  const exact = registry.staticResources.get(uri);
  if (exact) return { operation: exact, args: {} };
  for (const template of registry.templates) {
    const variables = template.definition.template?.match(uri);
    if (variables) return { operation: template, args: variables };
  }
  return undefined;
}

/**
 * Reads declared resources for the built-in resource tools: the same operation and
 * pipeline as `resources/read`, run in the calling tool's session, as its owner.
 * `registry` is read on each call because the tools are built before the registry is.
 */
export function declaredResourceReader(registry: () => Registry): DeclaredResourceReader {
  return async (uri: string, ctx: ToolContext) => {
    const found = findDeclaredResource(registry(), uri);
    if (!found) return undefined;
    const { definition } = found.operation;
    const invocation = newInvocation(definition, found.args, uri, (state) =>
      CallContext.nested(ctx, state, uri),
    );
    let result: ReadResourceResult;
    try {
      result = asReadResult(await found.operation.execute(invocation));
    } finally {
      if (invocation.ctx instanceof CallContext) invocation.ctx.release();
    }
    const { template } = definition;
    // A paginated resource's next page is the same URI with the cursor its page answered.
    if (!specOf(definition, Paginated.capability) || !template) return { result };
    return { result, pageUri: (cursor: string) => template.expand({ ...found.args, cursor }) };
  };
}
