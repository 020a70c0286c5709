import { createHash } from "node:crypto";
import type { ByteSource } from "./byte-chunks.js";
import {
  type BodyValidators,
  type CachedBody,
  type HttpBodyCache,
  isOtherVersion,
  sharedHttpBodyCache,
} from "./http-body-cache.js";
import {
  bodyVersion,
  contentRange,
  discard,
  readWholeBody,
  validatorsOf,
  validatorVersion,
} from "./http-responses.js";

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
  const source = new HttpRangeSource(url, options);
  // A plain object of functions, as ever: a caller may pass `read` alone or spread the source.
  return {
    size: () => source.size(),
    read: (offset, length) => source.read(offset, length),
    version: () => source.version(),
  };
}

/**
 * One source's reads. A class because every step shares what the source learnt of the
 * server: its whole body once it ignores or refuses `Range`, whether it serves ranges, the
 * size and the validators of its last ranged answer.
 */
class HttpRangeSource {
  private readonly doFetch: typeof fetch;
  private readonly cache: HttpBodyCache | undefined;
  private readonly maxFullBytes: number;
  private readonly key: string;
  /** This source's body, once the server is known to ignore or refuse `Range`. */
  private whole: CachedBody | undefined;
  /** The server answered a `Range` request of this source with 206. */
  private ranged = false;
  private knownSize: number | undefined;
  /** The validators of the last ranged answer (206, 416) this source had: its version. */
  private rangedValidators: BodyValidators | undefined;

  constructor(
    private readonly url: string,
    private readonly options: HttpByteSourceOptions,
  ) {
    this.doFetch = options.fetch ?? fetch;
    this.cache = options.cache === false ? undefined : (options.cache ?? sharedHttpBodyCache);
    const maxFullBytes =
      options.maxFullBytes ?? this.cache?.maxEntryBytes ?? sharedHttpBodyCache.maxEntryBytes;
    if (!Number.isSafeInteger(maxFullBytes) || maxFullBytes < 1) {
      throw new RangeError(`httpByteSource: maxFullBytes must be a whole number >= 1 (got ${maxFullBytes})`);
    }
    this.maxFullBytes = maxFullBytes;
    this.key = cacheKey(url, options);
  }

  async size(): Promise<number> {
    if (this.knownSize === undefined) await this.read(0, 1);
    if (this.knownSize === undefined) throw new Error(`GET ${this.url} did not say how large the content is`);
    return this.knownSize;
  }

  async version(): Promise<string | undefined> {
    if (this.knownSize === undefined) await this.read(0, 1);
    return this.whole ? bodyVersion(this.whole) : validatorVersion(this.rangedValidators);
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    if (!this.whole && !this.ranged) {
      const kept = await this.keptBody();
      if (kept) this.use(kept);
    }
    if (this.whole) return this.whole.bytes.subarray(offset, offset + length);
    if (this.ranged) {
      const answer = await this.answerTo(await this.get(rangeHeader(offset, length)), offset, length);
      if ("part" in answer) return answer.part;
      // The server stopped serving ranges.
      this.ranged = false;
      if (this.cache) this.cache.set(this.key, answer.body);
      this.use(answer.body);
      return answer.body.bytes.subarray(offset, offset + length);
    }
    return this.firstRead(offset, length);
  }

  /** First contact: one request for every source of this URL until its answer is known. */
  private async firstRead(offset: number, length: number): Promise<Uint8Array> {
    let mine: Uint8Array | undefined;
    const body = await this.share(async () => {
      const answer = await this.answerTo(await this.get(rangeHeader(offset, length)), offset, length);
      if ("body" in answer) return answer.body;
      mine = answer.part;
      return undefined;
    });
    if (body) {
      this.use(body);
      return body.bytes.subarray(offset, offset + length);
    }
    this.ranged = true;
    // Another source's request found the server serving ranges: ask for this range.
    return mine ?? this.read(offset, length);
  }

  private use(body: CachedBody): void {
    this.whole = body;
    this.knownSize = body.bytes.byteLength;
  }

  private get(extra: Record<string, string> = {}): Promise<Response> {
    return this.doFetch(this.url, { headers: { ...this.options.headers, ...extra } });
  }

  private share(load: () => Promise<CachedBody | undefined>): Promise<CachedBody | undefined> {
    return this.cache ? this.cache.load(this.key, load) : load();
  }

  private readBody(response: Response): Promise<CachedBody> {
    return readWholeBody(response, this.url, this.maxFullBytes);
  }

  /** The whole body by a plain GET (no `Range`). */
  private async download(): Promise<CachedBody> {
    const response = await this.get();
    if (response.status !== 200) {
      await discard(response);
      throw new Error(`GET ${this.url} answered ${response.status}`);
    }
    return this.readBody(response);
  }

  /** Shares the body of a 200 `response` through the cache, dropping the response when another download is shared instead. */
  private async shareBody(response: Response): Promise<CachedBody | undefined> {
    let used = false;
    const shared = this.share(() => {
      used = true;
      return this.readBody(response);
    });
    if (!used) await discard(response);
    return shared;
  }

  /**
   * What a response to a `Range` request gives: the range's bytes (206, or 416 on an
   * empty resource), or the whole body (the server ignored `Range`, or refused it and a
   * plain GET followed).
   */
  private async answerTo(
    response: Response,
    offset: number,
    length: number,
  ): Promise<{ part: Uint8Array } | { body: CachedBody }> {
    if (response.ok) this.cache?.revoke(this.key, validatorsOf(response));
    if (response.status === 206 || response.status === 416) this.rangedValidators = validatorsOf(response);
    if (response.status === 206) {
      const range = contentRange(response);
      if (range?.total === undefined) {
        // Without a total the size stays unknown: read the whole body instead.
        await discard(response);
        return { body: await this.download() };
      }
      if (range.start !== offset) {
        await discard(response);
        throw new Error(
          `GET ${this.url} answered bytes from ${range.start} to a Range request from ${offset}`,
        );
      }
      this.knownSize = range.total;
      const part = new Uint8Array(await response.arrayBuffer());
      return { part: part.byteLength > length ? part.subarray(0, length) : part };
    }
    if (response.status === 200) return { body: await this.readBody(response) };
    await discard(response);
    if (response.status === 416) {
      const total = contentRange(response)?.total;
      if (total !== undefined) {
        this.knownSize = total;
        return { part: new Uint8Array(0) };
      }
    }
    if (NOT_ABOUT_RANGE.has(response.status) || response.status < 400) {
      throw new Error(`GET ${this.url} with Range answered ${response.status}`);
    }
    // 501, 400, 405, 500…: the server refuses ranges; one plain download instead.
    return { body: await this.download() };
  }

  /** A kept body, checked once by this source when it has validators. */
  private async keptBody(): Promise<CachedBody | undefined> {
    const { cache, key } = this;
    const kept = cache?.get(key);
    if (!cache || !kept) return undefined;
    if (kept.etag === undefined && kept.lastModified === undefined) return kept;
    const conditions: Record<string, string> = {};
    if (kept.etag !== undefined) conditions["if-none-match"] = kept.etag;
    if (kept.lastModified !== undefined) conditions["if-modified-since"] = kept.lastModified;
    const response = await this.get(conditions);
    if (response.status === 304) {
      await discard(response);
      return kept;
    }
    if (response.status !== 200) {
      await discard(response);
      if (response.status === 404 || response.status === 410) cache.delete(key, kept);
      throw new Error(`GET ${this.url} answered ${response.status}`);
    }
    const seen = validatorsOf(response);
    if ((seen.etag ?? seen.lastModified) !== undefined && !isOtherVersion(kept, seen)) {
      // The server ignores conditional requests but shows the same version: keep it, skip the body.
      await discard(response);
      return kept;
    }
    cache.delete(key, kept);
    return this.shareBody(response);
  }
}

function rangeHeader(offset: number, length: number): Record<string, string> {
  return { range: `bytes=${offset}-${offset + length - 1}` };
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
