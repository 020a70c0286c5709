import { createHash } from "node:crypto";
import { itemAt } from "../common/guards.js";
import type { BodyValidators, CachedBody } from "./http-body-cache.js";

/**
 * The validators of `response` (`ETag`, `Last-Modified`), each only when sent.
 *
 * @example
 * ```ts
 * validatorsOf(new Response("", { headers: { etag: '"v1"' } })); // { etag: '"v1"' }
 * ```
 */
export function validatorsOf(response: Response): BodyValidators {
  const etag = response.headers.get("etag") ?? undefined;
  const lastModified = response.headers.get("last-modified") ?? undefined;
  return { ...(etag !== undefined && { etag }), ...(lastModified !== undefined && { lastModified }) };
}

/**
 * `Content-Range: bytes 0-99/1234` (or `bytes *\/1234` on a 416).
 *
 * @example
 * ```ts
 * contentRange(new Response("", { headers: { "content-range": "bytes 0-99/1234" } })); // { start: 0, total: 1234 }
 * ```
 */
export function contentRange(response: Response): { start?: number; total?: number } | undefined {
  const match = /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)\s*$/i.exec(response.headers.get("content-range") ?? "");
  if (!match) return undefined;
  return {
    ...(match[1] !== undefined && { start: Number(match[1]) }),
    ...(match[2] !== "*" && { total: Number(match[2]) }),
  };
}

/**
 * Frees a response's connection without reading its body.
 *
 * @example
 * ```ts
 * if (response.status !== 200) await discard(response);
 * ```
 */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/**
 * The whole body of a 200 `response` from `url` with its validators, refused (and the
 * download stopped) past `maxFullBytes`, declared or read; a failure keeps nothing.
 *
 * @example
 * ```ts
 * const body = await readWholeBody(await fetch(url), url, 32 * 1024 * 1024);
 * ```
 */
export async function readWholeBody(
  response: Response,
  url: string,
  maxFullBytes: number,
): Promise<CachedBody> {
  const validators = validatorsOf(response);
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxFullBytes) {
    await discard(response);
    throw tooLarge(url, `${declared} bytes`, maxFullBytes);
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    total += next.value.byteLength;
    if (total > maxFullBytes) {
      await reader?.cancel();
      throw tooLarge(url, `more than ${maxFullBytes} bytes`, maxFullBytes);
    }
    parts.push(next.value);
  }
  return { bytes: concat(parts, total), ...validators };
}

/**
 * What a version is called by the server: its `ETag`, else its `Last-Modified`.
 *
 * @example
 * ```ts
 * validatorVersion({ lastModified: "Tue, 01 Dec 2026 10:00:00 GMT" }); // "last-modified:Tue, 01 Dec 2026 10:00:00 GMT"
 * ```
 */
export function validatorVersion(validators: BodyValidators | undefined): string | undefined {
  if (validators?.etag !== undefined) return validators.etag;
  if (validators?.lastModified !== undefined) return `last-modified:${validators.lastModified}`;
  return undefined;
}

/** Digests of bodies without validators, made once per body however many sources read it. */
const bodyDigests = new WeakMap<Uint8Array, string>();

/**
 * A whole body's version: its validators, else a digest of its bytes (132 bits of SHA-256).
 *
 * @example
 * ```ts
 * bodyVersion({ bytes: new TextEncoder().encode("hi") }); // "sha256:…"
 * ```
 */
export function bodyVersion(body: CachedBody): string {
  const named = validatorVersion(body);
  if (named !== undefined) return named;
  let digest = bodyDigests.get(body.bytes);
  if (digest === undefined) {
    digest = `sha256:${createHash("sha256").update(body.bytes).digest("base64url").slice(0, 22)}`;
    bodyDigests.set(body.bytes, digest);
  }
  return digest;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return itemAt(parts, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

function tooLarge(url: string, size: string, maxFullBytes: number): Error {
  return new Error(
    `${url} does not serve byte ranges, and its body (${size}) is larger than maxFullBytes (${maxFullBytes}): ` +
      "raise httpByteSource's maxFullBytes (and the body cache's maxEntryBytes, so calls share it) or serve the file with Range support",
  );
}
