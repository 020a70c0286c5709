import { randomBytes } from "node:crypto";

/** Every ephemeral resource URI starts with this scheme. */
export const EPHEMERAL_SCHEME = "ephemeral://";

/** A fresh id: 128 random bits, base64url. Ids never come from client text. */
export function newResourceId(): string {
  return randomBytes(16).toString("base64url");
}

/** True for ids this server could have generated (checked before any storage lookup). */
export function isResourceId(id: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(id);
}

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
