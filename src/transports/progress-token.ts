import { fieldOf, isObject } from "../common/guards.js";

/**
 * Where the HTTP handler moves a `_meta.progressToken` that is neither a string nor an
 * integer, so the request reaches the app (which answers it `-32602`) instead of failing
 * the SDK's message schema (`400` and `-32700` for the whole body).
 */
export const QUARANTINED_PROGRESS_TOKEN = "frugal/invalidProgressToken";

/**
 * Moves each request's invalid `_meta.progressToken` to `QUARANTINED_PROGRESS_TOKEN`, in
 * place, in a parsed body (one message or a batch). Other messages are left as they are.
 *
 * @example
 * ```ts
 * quarantineProgressTokens({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: { progressToken: 1.5 } } });
 * // params._meta is now { "frugal/invalidProgressToken": 1.5 }
 * ```
 */
export function quarantineProgressTokens(body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const meta = fieldOf(fieldOf(message, "params"), "_meta");
    if (!isObject(meta) || !Object.hasOwn(meta, "progressToken")) continue;
    const token = meta.progressToken;
    if (typeof token === "string" || Number.isSafeInteger(token)) continue;
    delete meta.progressToken;
    meta[QUARANTINED_PROGRESS_TOKEN] = token;
  }
}
