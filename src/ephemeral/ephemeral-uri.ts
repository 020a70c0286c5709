import { isResourceId } from "../storage/resource-id.js";

/** Every ephemeral resource URI the server generates starts with this scheme. */
export const EPHEMERAL_SCHEME = "ephemeral://";

/** Longest URI a handler may choose for a resource. */
export const MAX_CHOSEN_URI_LENGTH = 2048;

/** `ephemeral://<tool>/<id>`. */
export function ephemeralUri(tool: string, id: string): string {
  return `${EPHEMERAL_SCHEME}${encodeURIComponent(tool)}/${id}`;
}

/** The id of an ephemeral URI, or undefined when the URI is not one this server could have made. */
export function idOfEphemeralUri(uri: string): string | undefined {
  const match = /^ephemeral:\/\/[^/?#]+\/([^/?#]+)$/.exec(uri);
  const id = match?.[1];
  return id !== undefined && isResourceId(id) ? id : undefined;
}

/** RFC 3986 `absolute-URI` (`scheme ":" hier-part [ "?" query ]`): URI characters only, no fragment. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]*$/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/**
 * Why `uri` cannot be the URI a handler chose for a resource, or undefined when it can:
 * an absolute URI (a scheme, then something), URI characters only (spaces and the like
 * percent-encoded), no `#fragment`, at most `MAX_CHOSEN_URI_LENGTH` characters, and not
 * in the `ephemeral://` scheme, which is kept for the URIs the server generates. Whether
 * a declared resource or template matches it is the caller's check.
 */
export function chosenUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string" || uri.length === 0) return "must be a non-empty string";
  if (uri.length > MAX_CHOSEN_URI_LENGTH) return `is longer than ${MAX_CHOSEN_URI_LENGTH} characters`;
  const scheme = SCHEME.exec(uri)?.[0];
  if (scheme === undefined) return "is not an absolute URI: it needs a scheme, as in results://search/abc123";
  if (uri.length === scheme.length) return "has nothing after its scheme";
  if (uri.includes("#")) return "has a #fragment; a resource URI names a whole resource";
  if (!URI_CHARACTERS.test(uri) || BAD_PERCENT.test(uri))
    return "holds characters a URI may not (percent-encode spaces, quotes and non-ASCII text)";
  if (!URL.canParse(uri)) return "is not a well-formed URI";
  if (scheme.toLowerCase() === "ephemeral:")
    return "is in the ephemeral:// scheme, which is kept for the URIs the server generates (leave uri out to get one)";
  return undefined;
}
