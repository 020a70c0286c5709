/**
 * Longest resource URI a client may ask for (`resources/read`, `read_resource`,
 * `search_resource`): 4,096 characters. Work on a URI (matching templates, looking it up,
 * echoing it in an answer whose tokens are counted) grows with its length; a longer one is
 * refused before any of it. Twice the 2,048 characters a handler may choose for a resource.
 */
export const MAX_URI_LENGTH = 4096;

/**
 * Why a requested URI is refused for its length, or `undefined` when it is short enough.
 *
 * @example
 * ```ts
 * uriTooLong("x".repeat(5000)); // "the URI is 5000 characters long; a resource URI may be at most 4096"
 * ```
 */
export function uriTooLong(uri: string): string | undefined {
  if (uri.length <= MAX_URI_LENGTH) return undefined;
  return `the URI is ${uri.length} characters long; a resource URI may be at most ${MAX_URI_LENGTH}`;
}
