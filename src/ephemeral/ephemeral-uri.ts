import { isResourceId } from "../storage/resource-id.js";

/** Every ephemeral resource URI starts with this scheme. */
export const EPHEMERAL_SCHEME = "ephemeral://";

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
