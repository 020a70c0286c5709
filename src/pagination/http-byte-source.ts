// Over 300 lines: one byte source over HTTP ranges, whose closure holds the state its reads share (the
// cached body, its validators, the fallback to one whole read); the helpers below it are short.
import { createHash } from "node:crypto";
import { itemAt } from "../common/guards.js";
import type { ByteSource } from "./byte-chunks.js";
import {
  type BodyValidators,
  type CachedBody,
  type HttpBodyCache,
  isOtherVersion,
  sharedHttpBodyCache,
} from "./http-body-cache.js";

/** Options of `httpByteSource`. */
export interface HttpByteSourceOptions {
  /**
   * The fetch to use (default: global fetch). A custom one is part of the cache key: pass
   * the same function to every source (not one made per call) for them to share a download.
   */
  fetch?: typeof fetch;
  /** Extra request headers (e.g. authorization); part of the cache key. */
  headers?: Record<string, string>;
  /**
   * Largest body downloaded whole when the server ignores or refuses `Range` (default: the
   * cache's `maxEntryBytes`, 32 MiB). A larger body is refused with an error naming this
   * option. One larger than the cache's `maxEntryBytes` is kept by this source alone.
   */
  maxFullBytes?: number;
  /**
   * Where bodies downloaded whole are shared (default: the process-wide
   * `sharedHttpBodyCache`, 64 MiB); `false` keeps a body in this source alone.
   */
  cache?: HttpBodyCache | false;
}

/** Statuses about the resource or the caller, not the range: asking again without `Range` cannot help. */
const NOT_ABOUT_RANGE = new Set([401, 403, 404, 407, 410, 429, 503]);

/** A custom fetch's part of a cache key: the same function gives the same id. */
const fetchIds = new WeakMap<Function, number>();
let lastFetchId = 0;

/**
 * An HTTP resource read with `Range` requests. When the server ignores `Range` (answers
 * 200 with the whole body) or refuses it (501, 400, …), the body is downloaded once and
 * kept in a bounded, process-wide cache keyed by URL and request headers, so sources made
 * per call (one per tool call) share one download; concurrent first reads share it too. A
 * kept body with an `ETag` or `Last-Modified` is checked once by each source (a
 * conditional GET: 304 keeps it, another version replaces it); one without validators is
 * trusted for the cache's `maxAgeMs`. A failed download is never kept.
 *
 * Its `version` is the `ETag` the server sent (else `Last-Modified`) with the answer the
 * bytes came from; for a body downloaded whole without either, a SHA-256 digest of the
 * body. A server that serves ranges without validators has no version: the size then
 * stands in (see `ByteSource.version`).
 *
 * @example
 * ```ts
 * const source = httpByteSource("https://files.example.com/report.pdf");
 * const chunk = await readByteChunk(source, { offset: 0, byteCount: 512 * 1024 });
 * ```
 */
export function httpByteSource(url: string, options: HttpByteSourceOptions = {}): ByteSource {
  const doFetch = options.fetch ?? fetch;
  const cache = options.cache === false ? undefined : (options.cache ?? sharedHttpBodyCache);
  const maxFullBytes = options.maxFullBytes ?? cache?.maxEntryBytes ?? sharedHttpBodyCache.maxEntryBytes;
  if (!Number.isSafeInteger(maxFullBytes) || maxFullBytes < 1) {
    throw new RangeError(`httpByteSource: maxFullBytes must be a whole number >= 1 (got ${maxFullBytes})`);
  }
  const key = cacheKey(url, options);
  /** This source's body, once the server is known to ignore or refuse `Range`. */
  let whole: CachedBody | undefined;
  /** The server answered a `Range` request of this source with 206. */
  let ranged = false;
  let knownSize: number | undefined;
  /** The validators of the last ranged answer (206, 416) this source had: its version. */
  let rangedValidators: BodyValidators | undefined;

  const get = (extra: Record<string, string> = {}) =>
    doFetch(url, { headers: { ...options.headers, ...extra } });

  const share = (load: () => Promise<CachedBody | undefined>) => (cache ? cache.load(key, load) : load());

  /** The whole body from a 200 response, bounded by `maxFullBytes`; a failure keeps nothing. */
  const readBody = async (response: Response): Promise<CachedBody> => {
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
  };

  /** The whole body by a plain GET (no `Range`). */
  const download = async (): Promise<CachedBody> => {
    const response = await get();
    if (response.status !== 200) {
      await discard(response);
      throw new Error(`GET ${url} answered ${response.status}`);
    }
    return readBody(response);
  };

  /** Shares the body of a 200 `response` through the cache, dropping the response when another download is shared instead. */
  const shareBody = async (response: Response): Promise<CachedBody | undefined> => {
    let used = false;
    const shared = share(() => {
      used = true;
      return readBody(response);
    });
    if (!used) await discard(response);
    return shared;
  };

  /**
   * What a response to a `Range` request gives: the range's bytes (206, or 416 on an
   * empty resource), or the whole body (the server ignored `Range`, or refused it and a
   * plain GET followed).
   */
  const answerTo = async (
    response: Response,
    offset: number,
    length: number,
  ): Promise<{ part: Uint8Array } | { body: CachedBody }> => {
    if (response.ok) cache?.revoke(key, validatorsOf(response));
    if (response.status === 206 || response.status === 416) rangedValidators = validatorsOf(response);
    if (response.status === 206) {
      const range = contentRange(response);
      if (range?.total === undefined) {
        // Without a total the size stays unknown: read the whole body instead.
        await discard(response);
        return { body: await download() };
      }
      if (range.start !== offset) {
        await discard(response);
        throw new Error(`GET ${url} answered bytes from ${range.start} to a Range request from ${offset}`);
      }
      knownSize = range.total;
      const part = new Uint8Array(await response.arrayBuffer());
      return { part: part.byteLength > length ? part.subarray(0, length) : part };
    }
    if (response.status === 200) return { body: await readBody(response) };
    await discard(response);
    if (response.status === 416) {
      const total = contentRange(response)?.total;
      if (total !== undefined) {
        knownSize = total;
        return { part: new Uint8Array(0) };
      }
    }
    if (NOT_ABOUT_RANGE.has(response.status) || response.status < 400) {
      throw new Error(`GET ${url} with Range answered ${response.status}`);
    }
    // 501, 400, 405, 500…: the server refuses ranges; one plain download instead.
    return { body: await download() };
  };

  const rangeHeader = (offset: number, length: number) => ({
    range: `bytes=${offset}-${offset + length - 1}`,
  });

  /** A kept body, checked once by this source when it has validators. */
  const keptBody = async (): Promise<CachedBody | undefined> => {
    const kept = cache?.get(key);
    if (!cache || !kept) return undefined;
    if (kept.etag === undefined && kept.lastModified === undefined) return kept;
    const conditions: Record<string, string> = {};
    if (kept.etag !== undefined) conditions["if-none-match"] = kept.etag;
    if (kept.lastModified !== undefined) conditions["if-modified-since"] = kept.lastModified;
    const response = await get(conditions);
    if (response.status === 304) {
      await discard(response);
      return kept;
    }
    if (response.status !== 200) {
      await discard(response);
      if (response.status === 404 || response.status === 410) cache.delete(key, kept);
      throw new Error(`GET ${url} answered ${response.status}`);
    }
    const seen = validatorsOf(response);
    if ((seen.etag ?? seen.lastModified) !== undefined && !isOtherVersion(kept, seen)) {
      // The server ignores conditional requests but shows the same version: keep it, skip the body.
      await discard(response);
      return kept;
    }
    cache.delete(key, kept);
    return shareBody(response);
  };

  const use = (body: CachedBody) => {
    whole = body;
    knownSize = body.bytes.byteLength;
  };

  const bytesAt = async (offset: number, length: number): Promise<Uint8Array> => {
    if (!whole && !ranged) {
      const kept = await keptBody();
      if (kept) use(kept);
    }
    if (whole) return whole.bytes.subarray(offset, offset + length);
    if (ranged) {
      const answer = await answerTo(await get(rangeHeader(offset, length)), offset, length);
      if ("part" in answer) return answer.part;
      // The server stopped serving ranges.
      ranged = false;
      if (cache) cache.set(key, answer.body);
      use(answer.body);
      return answer.body.bytes.subarray(offset, offset + length);
    }
    // First contact: one request for every source of this URL until its answer is known.
    let mine: Uint8Array | undefined;
    const body = await share(async () => {
      const answer = await answerTo(await get(rangeHeader(offset, length)), offset, length);
      if ("body" in answer) return answer.body;
      mine = answer.part;
      return undefined;
    });
    if (body) {
      use(body);
      return body.bytes.subarray(offset, offset + length);
    }
    ranged = true;
    // Another source's request found the server serving ranges: ask for this range.
    return mine ?? bytesAt(offset, length);
  };

  return {
    async size() {
      if (knownSize === undefined) await bytesAt(0, 1);
      if (knownSize === undefined) throw new Error(`GET ${url} did not say how large the content is`);
      return knownSize;
    },
    read: bytesAt,
    async version() {
      if (knownSize === undefined) await bytesAt(0, 1);
      return whole ? bodyVersion(whole) : validatorVersion(rangedValidators);
    },
  };
}

/** What a version is called by the server: its `ETag`, else its `Last-Modified`. */
function validatorVersion(validators: BodyValidators | undefined): string | undefined {
  if (validators?.etag !== undefined) return validators.etag;
  if (validators?.lastModified !== undefined) return `last-modified:${validators.lastModified}`;
  return undefined;
}

/** Digests of bodies without validators, made once per body however many sources read it. */
const bodyDigests = new WeakMap<Uint8Array, string>();

/** A whole body's version: its validators, else a digest of its bytes (132 bits of SHA-256). */
function bodyVersion(body: CachedBody): string {
  const named = validatorVersion(body);
  if (named !== undefined) return named;
  let digest = bodyDigests.get(body.bytes);
  if (digest === undefined) {
    digest = `sha256:${createHash("sha256").update(body.bytes).digest("base64url").slice(0, 22)}`;
    bodyDigests.set(body.bytes, digest);
  }
  return digest;
}

/** URL, plus a digest of the request headers and of a custom fetch's identity: who may share a body. */
function cacheKey(url: string, options: HttpByteSourceOptions): string {
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]): [string, typeof value] => [name.toLowerCase(), value])
    .sort(([a], [b]) => (a < b ? -1 : 1));
  let fetchId = 0;
  if (options.fetch) {
    fetchId = fetchIds.get(options.fetch) ?? ++lastFetchId;
    fetchIds.set(options.fetch, fetchId);
  }
  if (headers.length === 0 && fetchId === 0) return url;
  const digest = createHash("sha256")
    .update(JSON.stringify([headers, fetchId]))
    .digest("base64url");
  return `${url}#${digest}`;
}

function validatorsOf(response: Response): BodyValidators {
  const etag = response.headers.get("etag") ?? undefined;
  const lastModified = response.headers.get("last-modified") ?? undefined;
  return { ...(etag !== undefined && { etag }), ...(lastModified !== undefined && { lastModified }) };
}

/** `Content-Range: bytes 0-99/1234` (or `bytes *\/1234` on a 416). */
function contentRange(response: Response): { start?: number; total?: number } | undefined {
  const match = /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)\s*$/i.exec(response.headers.get("content-range") ?? "");
  if (!match) return undefined;
  return {
    ...(match[1] !== undefined && { start: Number(match[1]) }),
    ...(match[2] !== "*" && { total: Number(match[2]) }),
  };
}

/** Frees a response's connection without reading its body. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
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
