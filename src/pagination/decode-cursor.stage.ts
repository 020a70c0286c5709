import type { OperationDefinition } from "../builder/definitions.js";
import { invalidParams } from "../errors/protocol-errors.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { toolError } from "../results/tool-error.js";
import { canonicalJson } from "./canonical-json.js";
import { CursorError } from "./cursor-codec.js";
import { describeKeySpec } from "./stable-key.js";

/**
 * Under `@Paginated`: checks and decodes the `cursor` input, clamps `limit`, and hands
 * the page to the handler as `ctx.page`. A cursor is bound to the operation, its input
 * without `cursor`/`limit`/`fields`, the key spec and the principal; anything else is
 * refused with a message telling the client to start again without a cursor.
 */
export const decodeCursorStage: StageFactory = {
  name: "decodeCursor",
  create(definition, env) {
    const spec = definition.pagination;
    if (!spec) return undefined;
    const keySpec = describeKeySpec({ fields: spec.stableKey, order: spec.order });
    const operation = definition.kind === "resource" ? definition.uri : definition.name;
    return async (invocation, next) => {
      const { cursor, limit, fields, ...rest } = invocation.input as Record<string, unknown>;
      const owner = invocation.ctx.owner;
      const binding = {
        operation,
        canonicalInput: canonicalJson(rest),
        keySpec,
        principal: owner.startsWith("principal:") ? owner : null,
      };
      let after = null;
      if (typeof cursor === "string") {
        try {
          after = env.cursors.decode(cursor, binding);
        } catch (error) {
          if (error instanceof CursorError) return refuse(definition, error.message);
          throw error;
        }
      }
      const page = {
        after,
        limit: Math.min(typeof limit === "number" ? limit : spec.limit, spec.maxLimit),
        fields: spec.fields
          ? ((fields as string[] | undefined) ?? spec.defaultFields ?? spec.fields)
          : undefined,
      };
      invocation.page = { ...page, binding };
      invocation.ctx.attachPage({ ...page, cursor: typeof cursor === "string" ? cursor : null });
      // The handler gets its own arguments; the page arrives through ctx.page.
      invocation.input = rest;
      return next();
    };
  },
};

function refuse(definition: OperationDefinition, reason: string) {
  const name = definition.kind === "resource" ? definition.uri : definition.name;
  const message = `Invalid cursor: ${reason}. Call ${name} again without \`cursor\` to start from the first page.`;
  if (definition.kind === "tool") return toolError(message);
  throw invalidParams(message);
}
