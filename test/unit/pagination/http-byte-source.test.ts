import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { HttpBodyCache } from "../../../src/pagination/http-body-cache.js";
import { httpByteSource } from "../../../src/pagination/http-byte-source.js";
import { type FileServer, type FileServerOptions, startFileServer } from "../../support/file-server.js";

const content = randomBytes(10_000);
let server: FileServer | undefined;
const serve = async (options: Partial<FileServerOptions>) => {
  server = await startFileServer({ range: "serve", content, ...options });
  return server;
};
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("httpByteSource", () => {
  it("reads only the ranges asked for from a server that serves Range, its version the ETag", async () => {
    const files = await serve({ range: "serve", etag: true });
    const source = httpByteSource(files.url, { cache: false });
    expect(await source.size()).toBe(10_000);
    expect(Buffer.from(await source.read(5000, 100)).equals(content.subarray(5000, 5100))).toBe(true);
    expect(await source.version?.()).toMatch(/^"[0-9a-f]{16}"$/);
    expect(files.fullDownloads()).toBe(0);
    expect(files.hits.map((h) => h.range)).toEqual(["bytes=0-0", "bytes=5000-5099"]);
  });

  it("downloads once from a server that refuses ranges, then reads from memory, its version a digest", async () => {
    const files = await serve({ range: "refuse" });
    const source = httpByteSource(files.url, { cache: new HttpBodyCache() });
    expect(await source.size()).toBe(10_000);
    expect(Buffer.from(await source.read(9990, 100)).equals(content.subarray(9990))).toBe(true);
    expect(await source.version?.()).toMatch(/^sha256:[A-Za-z0-9_-]{22}$/);
    expect(files.fullDownloads()).toBe(1);
    expect(files.hits.map((h) => h.answer)).toEqual([501, 200]);
  });

  it("shares one kept body between the sources of one URL, checking it is current", async () => {
    const files = await serve({ range: "ignore", etag: true });
    const cache = new HttpBodyCache();
    await httpByteSource(files.url, { cache }).read(0, 10);
    const again = httpByteSource(files.url, { cache });
    expect(Buffer.from(await again.read(100, 10)).equals(content.subarray(100, 110))).toBe(true);
    expect(files.fullDownloads()).toBe(1);
    expect(files.hits.at(-1)?.answer).toBe(304);
  });

  it("refuses a body larger than maxFullBytes when the server will not serve ranges, naming the fixes", async () => {
    const files = await serve({ range: "ignore" });
    const source = httpByteSource(files.url, { cache: false, maxFullBytes: 1000 });
    await expect(source.read(0, 10)).rejects.toThrow(
      /does not serve byte ranges, and its body \(10000 bytes\) is larger than maxFullBytes \(1000\): raise httpByteSource's maxFullBytes/,
    );
  });

  it("reports an answer that is not about ranges as it is, and refuses a bad maxFullBytes", async () => {
    const files = await serve({ range: "serve" });
    const missing = httpByteSource(files.url.replace("report.pdf", "nothing"), {
      cache: false,
      fetch: async (url, init) =>
        String(url).endsWith("nothing") ? new Response("no", { status: 404 }) : fetch(url, init),
    });
    await expect(missing.size()).rejects.toThrow(/with Range answered 404$/);
    expect(() => httpByteSource(files.url, { maxFullBytes: 0 })).toThrow(
      "httpByteSource: maxFullBytes must be a whole number >= 1 (got 0)",
    );
  });

  it("is a plain object of functions: each may be passed on alone, and a spread keeps them", async () => {
    const files = await serve({ range: "serve", etag: true });
    const { size, read } = httpByteSource(files.url, { cache: false });
    expect(await size()).toBe(10_000);
    expect(Buffer.from(await read(10, 5)).equals(content.subarray(10, 15))).toBe(true);
    const spread = { ...httpByteSource(files.url, { cache: false }) };
    expect(await spread.version?.()).toMatch(/^"[0-9a-f]{16}"$/);
  });
});
