import type { IncomingMessage } from "node:http";

/** The body was larger than the limit. */
export class BodyTooLargeError extends Error {}

/**
 * Reads a request body up to `maxBytes`, refusing early (from `Content-Length`, or as
 * soon as the stream passes the limit) instead of buffering an attacker's gigabytes.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const read of req) {
    const chunk: Buffer = read;
    size += chunk.length;
    if (size > maxBytes) {
      req.resume();
      throw new BodyTooLargeError();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
