import { describe, expect, it } from "vitest";
import { readByteChunk } from "../../../src/pagination/byte-chunks.js";
import { type CachedBody, HttpBodyCache } from "../../../src/pagination/http-body-cache.js";
import { httpByteSource } from "../../../src/pagination/http-byte-source.js";

const body = (size: number, validators: Partial<CachedBody> = {}): CachedBody => ({
  bytes: new Uint8Array(size).fill(size % 251),
  ...validators,
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("HttpBodyCache", () => {
  it("is bounded in bytes (least recently used first) and keeps no body over maxEntryBytes", () => {
    const cache = new HttpBodyCache({ maxBytes: 100, maxEntryBytes: 60 });
    expect(cache.set("a", body(40))).toBe(true);
    expect(cache.set("b", body(40))).toBe(true);
    cache.get("a");
    expect(cache.set("c", body(40))).toBe(true);
    expect([cache.get("a"), cache.get("b"), cache.get("c")].map((b) => b !== undefined)).toEqual([
      true,
      false,
      true,
    ]);
    expect(cache.bytes).toBe(80);
    expect(cache.set("d", body(61))).toBe(false);
    expect(cache.get("d")).toBeUndefined();
  });

  it("defaults to 64 MiB, 32 MiB a body, and refuses impossible limits naming the option", () => {
    const cache = new HttpBodyCache();
    expect([cache.maxBytes, cache.maxEntryBytes]).toEqual([64 * 1024 * 1024, 32 * 1024 * 1024]);
    expect(() => new HttpBodyCache({ maxBytes: 10, maxEntryBytes: 11 })).toThrow(/maxEntryBytes/);
    expect(() => new HttpBodyCache({ maxBytes: 0 })).toThrow(/maxBytes/);
    expect(() => new HttpBodyCache({ maxAgeMs: 1.5 })).toThrow(/maxAgeMs/);
  });

  it("shares one load among concurrent callers and keeps its body", async () => {
    const cache = new HttpBodyCache();
    let loads = 0;
    const load = async () => {
      loads++;
      await sleep(5);
      return body(10);
    };
    const [a, b] = await Promise.all([cache.load("k", load), cache.load("k", load)]);
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(await cache.load("k", load)).toBe(a);
    expect(loads).toBe(1);
  });

  it("does not keep a failed load: every waiter sees the failure, the next call loads again", async () => {
    const cache = new HttpBodyCache();
    let loads = 0;
    const failing = async (): Promise<CachedBody> => {
      loads++;
      await sleep(5);
      throw new Error("GET answered 500");
    };
    const results = await Promise.allSettled([cache.load("k", failing), cache.load("k", failing)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(loads).toBe(1);
    expect(cache.get("k")).toBeUndefined();
    expect(await cache.load("k", async () => body(3))).toMatchObject({ bytes: body(3).bytes });
  });

  it("shares but does not keep `undefined` (a server that serves ranges)", async () => {
    const cache = new HttpBodyCache();
    expect(await cache.load("k", async () => undefined)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("drops a body when a response shows another ETag (else Last-Modified); no validator says nothing", () => {
    const cache = new HttpBodyCache();
    cache.set("k", body(5, { etag: '"v1"', lastModified: "Mon, 01 Jan 2024 00:00:00 GMT" }));
    expect(cache.revoke("k", {})).toBe(false);
    expect(cache.revoke("k", { etag: '"v1"', lastModified: "Tue, 02 Jan 2024 00:00:00 GMT" })).toBe(false);
    expect(cache.revoke("k", { etag: '"v2"' })).toBe(true);
    expect(cache.get("k")).toBeUndefined();
    cache.set("m", body(5, { lastModified: "Mon, 01 Jan 2024 00:00:00 GMT" }));
    expect(cache.revoke("m", { lastModified: "Tue, 02 Jan 2024 00:00:00 GMT" })).toBe(true);
  });

  it("trusts a body without validators for maxAgeMs only; one with validators stays", async () => {
    const cache = new HttpBodyCache({ maxAgeMs: 20 });
    cache.set("plain", body(5));
    cache.set("tagged", body(5, { etag: '"v1"' }));
    await sleep(40);
    expect(cache.get("plain")).toBeUndefined();
    expect(cache.get("tagged")).toBeDefined();
  });
});

/** A fake server behind `fetch`: `answer` gets the URL and the request headers. */
function fakeFetch(answer: (headers: Record<string, string>) => Response) {
  const requests: Array<Record<string, string>> = [];
  const doFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    const headers = Object.fromEntries(
      Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    requests.push(headers);
    return answer(headers);
  }) as typeof fetch;
  return { doFetch, requests };
}

/** A body stream that counts the chunks pulled from it. */
function countedBody(bytes: Uint8Array, pieces = 4) {
  const state = { pulled: 0 };
  const size = Math.ceil(bytes.byteLength / pieces);
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      state.pulled++;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return { stream, state };
}

describe("httpByteSource with a body cache", () => {
  const content = new Uint8Array(4000).map((_, i) => i % 256);

  it("refuses a body over maxFullBytes with an error naming the option, declared or not", async () => {
    const declared = fakeFetch(() => new Response(content, { headers: { "content-length": "4000" } }));
    const cache = new HttpBodyCache();
    await expect(
      readByteChunk(httpByteSource("http://x/a", { fetch: declared.doFetch, cache, maxFullBytes: 1000 }), {
        offset: 0,
        byteCount: 10,
      }),
    ).rejects.toThrow(/larger than maxFullBytes \(1000\).*maxEntryBytes/);
    const streamed = fakeFetch(() => new Response(countedBody(content).stream));
    await expect(
      httpByteSource("http://x/b", { fetch: streamed.doFetch, cache, maxFullBytes: 1000 }).size(),
    ).rejects.toThrow(/more than 1000 bytes.*maxFullBytes/);
    expect(cache.size).toBe(0);
  });

  it("defaults maxFullBytes to the cache's maxEntryBytes", async () => {
    const { doFetch } = fakeFetch(() => new Response(content));
    const cache = new HttpBodyCache({ maxBytes: 8000, maxEntryBytes: 3999 });
    await expect(httpByteSource("http://x/c", { fetch: doFetch, cache }).size()).rejects.toThrow(
      /maxFullBytes \(3999\)/,
    );
  });

  it("checks a kept body with a conditional GET; a server that ignores it but shows the same ETag costs no body", async () => {
    let version = '"v1"';
    let lastBody: { pulled: number } | undefined;
    const { doFetch, requests } = fakeFetch((headers) => {
      if (headers["if-modified-since"] === "Mon, 01 Jan 2024 00:00:00 GMT" && version === '"v1"') {
        // Only the first check is answered with 304; later ones ignore the condition.
        if (requests.length === 2) return new Response(null, { status: 304 });
      }
      const counted = countedBody(content);
      lastBody = counted.state;
      return new Response(counted.stream, {
        headers: { etag: version, "last-modified": "Mon, 01 Jan 2024 00:00:00 GMT" },
      });
    });
    const cache = new HttpBodyCache();
    const source = () => httpByteSource("http://x/d", { fetch: doFetch, cache });
    expect(await source().size()).toBe(4000);
    expect(requests[0]).toMatchObject({ range: "bytes=0-0" });
    expect(await source().size()).toBe(4000);
    expect(requests[1]).toMatchObject({ "if-none-match": '"v1"' });
    expect(requests[1]?.range).toBeUndefined();
    const chunk = await readByteChunk(source(), { offset: 100, byteCount: 10 });
    expect(Buffer.from(chunk.bytes, "base64")).toEqual(Buffer.from(content.subarray(100, 110)));
    expect(requests).toHaveLength(3);
    expect(lastBody?.pulled ?? 0).toBeLessThan(4);
    version = '"v2"';
    await source().size();
    expect(requests).toHaveLength(4);
    expect(cache.size).toBe(1);
    await source().size();
    expect(requests[4]).toMatchObject({ "if-none-match": '"v2"' });
  });

  it("keys by request headers: another authorization never reads a kept body", async () => {
    const { doFetch, requests } = fakeFetch(() => new Response(content));
    const cache = new HttpBodyCache();
    const as = (token: string) =>
      httpByteSource("http://x/e", { fetch: doFetch, cache, headers: { Authorization: token } });
    await as("alice").size();
    await as("alice").size();
    expect(requests).toHaveLength(1);
    await as("bob").size();
    expect(requests).toHaveLength(2);
  });

  it("with cache: false, a source keeps its body alone", async () => {
    const { doFetch, requests } = fakeFetch(() => new Response(content));
    const source = httpByteSource("http://x/f", { fetch: doFetch, cache: false });
    await readByteChunk(source, { offset: 0, byteCount: 10 });
    await readByteChunk(source, { offset: 3990, byteCount: 10 });
    expect(requests).toHaveLength(1);
    await httpByteSource("http://x/f", { fetch: doFetch, cache: false }).size();
    expect(requests).toHaveLength(2);
  });

  it("reads an empty resource whose server answers 416 to bytes=0-0", async () => {
    const { doFetch } = fakeFetch(
      () => new Response(null, { status: 416, headers: { "content-range": "bytes */0" } }),
    );
    const chunk = await readByteChunk(httpByteSource("http://x/g", { fetch: doFetch }), {
      offset: 0,
      byteCount: 10,
    });
    expect(chunk).toMatchObject({ byteCount: 0, totalBytes: 0, hasMore: false });
  });

  it("does not ask again without Range after a 404", async () => {
    const { doFetch, requests } = fakeFetch(() => new Response("gone", { status: 404 }));
    await expect(httpByteSource("http://x/h", { fetch: doFetch }).size()).rejects.toThrow(/404/);
    expect(requests).toHaveLength(1);
  });
});
