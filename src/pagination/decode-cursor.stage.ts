import type { OperationDefinition } from "../builder/definitions.js";
import { invalidParams } from "../errors/protocol-errors.js";
import type { PipelineEnvironment, StageFactory } from "../pipeline/stage-factory.js";
import { toolError } from "../results/tool-error.js";
import { CLOCK } from "../tokens.js";
import { canonicalJson } from "./canonical-json.js";
import { type CursorBinding, CursorError } from "./cursor-codec.js";
import type { KeyValue } from "./cursor-values.js";
import type { PaginationSpec } from "./paginated-input.js";
import { describeKeySpec } from "./stable-key.js";
import { BoundError, resolveWindow, type StreamWindow } from "./stream-window.js";

/**
 * Under `@Paginated`: checks and decodes the `cursor` input, clamps `limit`, resolves a
 * stream's `since`/`until` range, and hands the page to the handler as `ctx.page`. A
 * cursor is bound to the operation, its input without `cursor`/`limit`/`fields`, the key
 * spec and the principal; anything else is refused with a message telling the client to
 * start again without a cursor.
 */
export const decodeCursorStage: StageFactory = {
  name: "decodeCursor",
  create(definition, env) {
    const spec = definition.pagination;
    if (!spec) return undefined;
    const keySpec = describeKeySpec({ fields: spec.stableKey, order: spec.order });
    const operation = definition.kind === "resource" ? definition.uri : definition.name;
    const clock = env.resolve(CLOCK);
    return async (invocation, next) => {
      const { cursor, limit, fields, ...rest } = invocation.input as Record<string, unknown>;
      const owner = invocation.ctx.owner;
      const binding: CursorBinding = {
        operation,
        canonicalInput: canonicalJson(rest),
        keySpec,
        principal: owner.startsWith("principal:") ? owner : null,
      };
      let opened: { after: Record<string, KeyValue> | null; window: StreamWindow | undefined };
      try {
        opened =
          typeof cursor === "string"
            ? openCursor(env, cursor, binding, spec)
            : firstPage(rest, spec, clock.now());
      } catch (error) {
        if (error instanceof CursorError)
          return refuse(
            definition,
            `Invalid cursor: ${error.message}. Call ${operation} again without \`cursor\` to start from the first page.`,
          );
        if (error instanceof BoundError)
          return refuse(definition, `Invalid arguments for ${operation}: ${error.message}.`);
        throw error;
      }
      const page = {
        after: opened.after,
        limit: Math.min(typeof limit === "number" ? limit : spec.limit, spec.maxLimit),
        fields: spec.fields
          ? ((fields as string[] | undefined) ?? spec.defaultFields ?? spec.fields)
          : undefined,
      };
      invocation.page = { ...page, binding, window: opened.window };
      invocation.ctx.attachPage({
        ...page,
        cursor: typeof cursor === "string" ? cursor : null,
        ...(opened.window ? { since: opened.window.since, until: opened.window.until } : {}),
      });
      // The handler gets its own arguments; the page (and a stream's range) arrive through ctx.page.
      if (spec.stream) {
        const { since: _since, until: _until, ...own } = rest;
        invocation.input = own;
      } else {
        invocation.input = rest;
      }
      return next();
    };
  },
};

function openCursor(env: PipelineEnvironment, cursor: string, binding: CursorBinding, spec: PaginationSpec) {
  const { after, state } = env.cursors.open(cursor, binding);
  const window = spec.stream ? { since: asBound(state.s), until: asBound(state.u) } : undefined;
  return { after, window };
}

function firstPage(input: Record<string, unknown>, spec: PaginationSpec, now: number) {
  const window = spec.stream ? resolveWindow(input.since, input.until, spec.stream, now) : undefined;
  return { after: null, window };
}

function asBound(value: KeyValue | undefined): number | Date | null {
  return typeof value === "number" || value instanceof Date ? value : null;
}

function refuse(definition: OperationDefinition, message: string) {
  if (definition.kind === "tool") return toolError(message);
  throw invalidParams(message);
}
