import type { QueryCursorBinding, QueryCursorCodec } from "../ephemeral/query-resource.js";
import { QueryCursorError } from "../ephemeral/query-resource.js";
import { type CursorCodec, CursorError } from "../pagination/cursor-codec.js";

/** The one key field of a query cursor: the position of the last item answered. */
const POSITION = ["p"] as const;

/**
 * `query_resource`'s cursors on the app's cursor codec: signed (or encrypted), versioned,
 * expiring and bound like every other cursor (to the tool, the query without `cursor`,
 * `limit` and `select`, its order, and the principal, never the session). The resource
 * tools and pagination are capabilities that do not know each other; the app joins them here.
 */
export function queryCursors(codec: CursorCodec): QueryCursorCodec {
  // The position is the cursor's one key value; the rest (version, totals) rides as its state.
  const bindingOf = (binding: QueryCursorBinding) => ({
    operation: binding.operation,
    canonicalInput: binding.canonicalInput,
    keySpec: binding.keySpec,
    keyFields: POSITION,
    principal: binding.owner.startsWith("principal:") ? binding.owner : null,
  });
  return {
    issue: ({ p, ...rest }, binding) => codec.encode({ p }, bindingOf(binding), rest),
    read: (token, binding) => {
      try {
        const { after, state } = codec.open(token, bindingOf(binding));
        return { ...state, ...after };
      } catch (error) {
        if (error instanceof CursorError) throw new QueryCursorError(error.message);
        throw error;
      }
    },
  };
}
