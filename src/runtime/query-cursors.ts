import type { QueryCursorBinding, QueryCursorCodec } from "../ephemeral/query-resource.js";
import { QueryCursorError } from "../ephemeral/query-resource.js";
import { type CursorCodec, CursorError } from "../pagination/cursor-codec.js";

/**
 * `query_resource`'s cursors on the app's cursor codec: signed (or encrypted), versioned,
 * expiring and bound like every other cursor (to the tool, the query without `cursor`,
 * `limit` and `select`, its order, and the principal, never the session). The resource
 * tools and pagination are capabilities that do not know each other; the app joins them here.
 */
export function queryCursors(codec: CursorCodec): QueryCursorCodec {
  const bindingOf = (binding: QueryCursorBinding) => ({
    operation: binding.operation,
    canonicalInput: binding.canonicalInput,
    keySpec: binding.keySpec,
    principal: binding.owner.startsWith("principal:") ? binding.owner : null,
  });
  return {
    issue: (values, binding) => codec.encode(values, bindingOf(binding)),
    read: (token, binding) => {
      try {
        return codec.decode(token, bindingOf(binding));
      } catch (error) {
        if (error instanceof CursorError) throw new QueryCursorError(error.message);
        throw error;
      }
    },
  };
}
