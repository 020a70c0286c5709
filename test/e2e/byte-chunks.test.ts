import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rename, rm, utimes, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Budget,
  type ByteRange,
  type ByteSource,
  ByteSourceChangedError,
  byteChunkInput,
  createTestClient,
  fileByteSource,
  httpByteSource,
  LOGGER,
  type Logger,
  McpFactory,
  McpModule,
  McpService,
  readByteChunk,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type FileServer, type FileServerOptions, startFileServer } from "../support/file-server.js";
import { deferred } from "../support/gates.js";

const CONTENT = randomBytes(1_300_000);
let dir: string;
let path: string;
let server: Server;
let base: string;
const requests: Array<{ url?: string; range?: string }> = [];

@McpService()
class FilesService {
  @Tool({ description: "Read the PDF in chunks", input: byteChunkInput(), visibility: ["app"] })
  readPdf(range: ByteRange) {
    return readByteChunk(fileByteSource(path), range);
  }

  @Tool({ description: "Peek at the PDF's bytes (model-visible)", input: byteChunkInput() })
  @Budget(50)
  peekPdf(range: ByteRange) {
    return readByteChunk(fileByteSource(path), range);
  }

  /** A new source per call, as the examples make them: the shared cache is what saves downloads. */
  @Tool({
    description: "Read a remote file in chunks",
    input: { url: z.string(), ...byteChunkInput() },
    visibility: ["app"],
  })
  async readRemote({ url, ...range }: { url: string } & ByteRange) {
    remoteCallsEntered.resolveOne();
    return readByteChunk(httpByteSource(url), range);
  }

  /** A file the tests replace while a client reads it. */
  @Tool({ input: byteChunkInput(), visibility: ["app"] })
  readReplaced(range: ByteRange) {
    return readByteChunk(fileByteSource(replacedPath), range);
  }

  /** A source of the test's own making (`byteSource`): with or without `version()`. */
  @Tool({ input: byteChunkInput(), visibility: ["app"] })
  readCustom(range: ByteRange) {
    return readByteChunk(byteSource, range);
  }
}

let replacedPath = "";
let byteSource: ByteSource = { size: async () => 0, read: async () => new Uint8Array(0) };

/** Counts `read_remote` calls that reached their handler; resolves `all` at `expected`. */
const remoteCallsEntered = {
  count: 0,
  expected: Number.POSITIVE_INFINITY,
  all: deferred(),
  expect(n: number) {
    this.count = 0;
    this.expected = n;
    this.all = deferred();
  },
  resolveOne() {
    if (++this.count >= this.expected) this.all.resolve();
  },
};

@McpModule({ services: [FilesService] })
class FilesModule {}

type Chunk = {
  bytes: string;
  offset: number;
  byteCount: number;
  totalBytes: number;
  hasMore: boolean;
  version: string;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "frugal-bytes-"));
  path = join(dir, "report.pdf");
  await writeFile(path, CONTENT);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("byte chunks", () => {
  let t: TestClient;
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push({ url: req.url, range: req.headers.range });
      const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
      if (req.url === "/ranged" && match) {
        const start = Number(match[1]);
        const end = Math.min(Number(match[2]), CONTENT.length - 1);
        res.writeHead(206, { "content-range": `bytes ${start}-${end}/${CONTENT.length}` });
        res.end(CONTENT.subarray(start, end + 1));
        return;
      }
      res.writeHead(200, { "content-length": CONTENT.length });
      res.end(CONTENT);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestClient(FilesModule);
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it("reads a file through an app-only tool in chunks of at most 512 KiB, losing nothing", async () => {
    const { tools } = await t.client.listTools();
    const tool = tools.find((x) => x.name === "read_pdf");
    expect(tool?._meta).toEqual({ ui: { visibility: ["app"] } });
    expect(tool?.inputSchema.properties).toMatchObject({ byteCount: { maximum: 524288 } });
    const parts: Buffer[] = [];
    let offset = 0;
    let hasMore = true;
    while (hasMore) {
      const result = await t.client.callTool({ name: "read_pdf", arguments: { offset } });
      const chunk = result.structuredContent as Chunk;
      expect(chunk.byteCount).toBeLessThanOrEqual(512 * 1024);
      expect(chunk.totalBytes).toBe(CONTENT.length);
      parts.push(Buffer.from(chunk.bytes, "base64"));
      offset += chunk.byteCount;
      hasMore = chunk.hasMore;
    }
    expect(parts).toHaveLength(3);
    expect(Buffer.concat(parts).equals(CONTENT)).toBe(true);
  });

  it("refuses an oversized, fractional or negative range before reading", async () => {
    for (const args of [{ byteCount: 524289 }, { offset: 1.5 }, { offset: -1 }]) {
      const result = await t.client.callTool({ name: "read_pdf", arguments: args });
      expect(result.isError).toBe(true);
    }
    const past = await t.client.callTool({ name: "read_pdf", arguments: { offset: CONTENT.length + 1 } });
    expect(JSON.stringify(past.content)).toContain("past the end");
    const end = await t.client.callTool({ name: "read_pdf", arguments: { offset: CONTENT.length } });
    expect(end.structuredContent).toMatchObject({ byteCount: 0, hasMore: false });
  });

  it("reads an HTTP source with Range requests", async () => {
    requests.length = 0;
    const source = httpByteSource(`${base}/ranged`);
    const chunk = await readByteChunk(source, { offset: 1000, byteCount: 5000 });
    expect(Buffer.from(chunk.bytes, "base64").equals(CONTENT.subarray(1000, 6000))).toBe(true);
    expect(chunk).toMatchObject({ offset: 1000, byteCount: 5000, totalBytes: CONTENT.length, hasMore: true });
    expect(requests.every((r) => r.range !== undefined)).toBe(true);
  });

  it("falls back to one full GET when the server ignores Range", async () => {
    requests.length = 0;
    const source = httpByteSource(`${base}/plain`);
    const first = await readByteChunk(source, { offset: 0, byteCount: 10 });
    const last = await readByteChunk(source, { offset: CONTENT.length - 10, byteCount: 100 });
    expect(Buffer.from(first.bytes, "base64").equals(CONTENT.subarray(0, 10))).toBe(true);
    expect(Buffer.from(last.bytes, "base64").equals(CONTENT.subarray(-10))).toBe(true);
    expect(last.hasMore).toBe(false);
    expect(requests).toHaveLength(1);
  });
});

const CHUNK = 512 * 1024;
const BASE64_CHUNK = 4 * Math.ceil(CHUNK / 3);

describe("a byte chunk's bytes travel once", () => {
  it("a 512 KiB chunk's response on Streamable HTTP is under 1.05 × its base64, with a one-line text", async () => {
    const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    const app = await McpFactory.create(FilesModule, {
      name: "bytes",
      version: "1.0.0",
      providers: [{ provide: LOGGER, useValue: silent }],
    });
    const { url } = (await app.listen({ transport: "http", port: 0 })) as { url: string };
    const responseBytes: number[] = [];
    const countingFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      const body = typeof init?.body === "string" ? init.body : "";
      if (init?.method !== "POST" || !body.includes('"tools/call"')) return response;
      const bytes = new Uint8Array(await response.arrayBuffer());
      responseBytes.push(bytes.byteLength);
      return new Response(bytes, { status: response.status, headers: response.headers });
    };
    const client = new Client({ name: "bytes-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: countingFetch }));
    try {
      const result = await client.callTool({ name: "read_pdf", arguments: { offset: 0 } });
      const chunk = result.structuredContent as Chunk;
      expect(chunk.bytes).toHaveLength(BASE64_CHUNK);
      expect(Buffer.from(chunk.bytes, "base64").equals(CONTENT.subarray(0, CHUNK))).toBe(true);
      expect(result.content).toEqual([
        { type: "text", text: `524288 bytes at offset 0 of ${CONTENT.length}; next offset 524288` },
      ]);
      expect(responseBytes).toHaveLength(1);
      expect(responseBytes[0]).toBeGreaterThan(BASE64_CHUNK);
      expect(responseBytes[0]).toBeLessThan(1.05 * BASE64_CHUNK);
    } finally {
      await client.close();
      await app.close();
    }
  });

  it("the last chunk says it is the last; the serialized result holds the bytes once", async () => {
    const t = await createTestClient(FilesModule);
    try {
      const first = await t.callTool({ name: "read_pdf", arguments: { offset: 0 } });
      expect(JSON.stringify(first).length).toBeLessThan(1.05 * BASE64_CHUNK);
      const lastOffset = 2 * CHUNK;
      const last = await t.callTool({ name: "read_pdf", arguments: { offset: lastOffset } });
      expect(last.content).toEqual([
        {
          type: "text",
          text: `${CONTENT.length - lastOffset} bytes at offset ${lastOffset} of ${CONTENT.length}; this is the last chunk`,
        },
      ]);
      const end = await t.callTool({ name: "read_pdf", arguments: { offset: CONTENT.length } });
      expect(end.content).toEqual([
        {
          type: "text",
          text: `0 bytes at offset ${CONTENT.length} of ${CONTENT.length}; this is the last chunk`,
        },
      ]);
    } finally {
      await t.close();
    }
  });

  it("a model-visible chunk tool is budgeted by its one line, not by the base64", async () => {
    const t = await createTestClient(FilesModule);
    try {
      const result = await t.callTool({ name: "peek_pdf", arguments: { offset: 0 } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as Chunk).byteCount).toBe(CHUNK);
      expect(result.content).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

/** 3 MiB and 60 bytes: seven chunks, the last one short. */
const REMOTE = randomBytes(3 * 1024 * 1024 + 60);

describe("httpByteSource's Range fallback, through a tool that makes a source per call", () => {
  let t: TestClient;
  let files: FileServer | undefined;
  beforeAll(async () => {
    t = await createTestClient(FilesModule);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await files?.close();
    files = undefined;
  });

  const serve = async (options: FileServerOptions) => {
    files = await startFileServer(options);
    return files;
  };

  const readChunk = async (url: string, offset: number) => {
    const result = await t.callTool({ name: "read_remote", arguments: { url, offset } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return result.structuredContent as Chunk;
  };

  /** Reads the whole file chunk by chunk, checking every chunk's bytes against `content`. */
  const readAll = async (url: string, content: Buffer) => {
    let offset = 0;
    let chunks = 0;
    for (;;) {
      const chunk = await readChunk(url, offset);
      expect(chunk.totalBytes).toBe(content.length);
      expect(
        Buffer.from(chunk.bytes, "base64").equals(content.subarray(offset, offset + chunk.byteCount)),
      ).toBe(true);
      offset += chunk.byteCount;
      chunks++;
      if (!chunk.hasMore) break;
    }
    expect(offset).toBe(content.length);
    return chunks;
  };

  it("a server that answers 501 to Range: one full download for the whole walk", async () => {
    const server = await serve({ range: "refuse", content: REMOTE });
    expect(await readAll(server.url, REMOTE)).toBe(7);
    expect(server.hits.map((hit) => hit.answer)).toEqual([501, 200]);
    expect(server.fullDownloads()).toBe(1);
  });

  it("a server that ignores Range (200): one full download for the whole walk", async () => {
    const server = await serve({ range: "ignore", content: REMOTE });
    expect(await readAll(server.url, REMOTE)).toBe(7);
    expect(server.hits.map((hit) => hit.answer)).toEqual([200]);
    expect(server.fullDownloads()).toBe(1);
  });

  it("a server that serves Range: only ranges, never the whole body", async () => {
    const server = await serve({ range: "serve", content: REMOTE });
    expect(await readAll(server.url, REMOTE)).toBe(7);
    expect(server.hits.every((hit) => hit.answer === 206)).toBe(true);
    expect(server.fullDownloads()).toBe(0);
  });

  it("an ETag change invalidates the kept body; an unchanged one is confirmed by a 304", async () => {
    const server = await serve({ range: "refuse", content: REMOTE, etag: true });
    await readChunk(server.url, 0);
    await readChunk(server.url, CHUNK);
    expect(server.hits.map((hit) => hit.answer)).toEqual([501, 200, 304]);

    const next = Buffer.from(REMOTE);
    next.write("version two", CHUNK + 10);
    server.content = next;
    const changed = await readChunk(server.url, CHUNK);
    expect(Buffer.from(changed.bytes, "base64").equals(next.subarray(CHUNK, 2 * CHUNK))).toBe(true);
    expect(server.hits.map((hit) => hit.answer)).toEqual([501, 200, 304, 200]);

    expect(await readAll(server.url, next)).toBe(7);
    expect(server.hits.slice(4).every((hit) => hit.answer === 304)).toBe(true);
    expect(server.fullDownloads()).toBe(2);
  });

  it("concurrent first reads share one download", async () => {
    for (const range of ["ignore", "refuse"] as const) {
      const held = deferred();
      const server = await serve({ range, content: REMOTE, hold: () => held.promise });
      remoteCallsEntered.expect(7);
      const calls = [0, 1, 2, 3, 4, 5, 6].map((i) => readChunk(server.url, i * CHUNK));
      await remoteCallsEntered.all.promise;
      // Every handler is in; let them reach the source before the server answers.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      held.resolve();
      const chunks = await Promise.all(calls);
      chunks.forEach((chunk, i) => {
        const expected = REMOTE.subarray(i * CHUNK, (i + 1) * CHUNK);
        expect(Buffer.from(chunk.bytes, "base64").equals(expected)).toBe(true);
      });
      expect(server.hits.map((hit) => hit.answer)).toEqual(range === "ignore" ? [200] : [501, 200]);
      await server.close();
    }
  });

  it("a failed download (500, then a body cut short) is retried, never kept", async () => {
    const server = await serve({ range: "refuse", content: REMOTE, failures: [500, "truncated"] });
    const failed = await t.callTool({ name: "read_remote", arguments: { url: server.url, offset: 0 } });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain("answered 500");
    const cut = await t.callTool({ name: "read_remote", arguments: { url: server.url, offset: 0 } });
    expect(cut.isError).toBe(true);
    expect(await readAll(server.url, REMOTE)).toBe(7);
    expect(server.hits.map((hit) => hit.answer)).toEqual([501, 500, 501, "truncated", 501, 200]);
  });
});

/** The first 1.2 MB of a file, then the rest of another one of the same size: what a silent reassembly gives. */
const VERSION_ONE = randomBytes(1_200_000);
const VERSION_TWO = randomBytes(1_200_000);

describe("byte chunk versions: a file replaced mid-download is refused, never reassembled corrupt", () => {
  let t: TestClient;
  let files: FileServer | undefined;
  beforeAll(async () => {
    t = await createTestClient(FilesModule);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await files?.close();
    files = undefined;
  });

  const call = (name: string, args: Record<string, unknown>) => t.callTool({ name, arguments: args });
  const chunkOf = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return result.structuredContent as Chunk;
  };
  const errorText = (result: Awaited<ReturnType<typeof call>>) => {
    expect(result.isError).toBe(true);
    return (result.content as Array<{ text: string }>)[0]?.text ?? "";
  };
  /** Reads a whole file from offset 0, passing the first chunk's version with every later one. */
  const readAll = async (name: string, extra: Record<string, unknown> = {}) => {
    const first = await chunkOf(name, { ...extra, offset: 0 });
    const parts = [Buffer.from(first.bytes, "base64")];
    let chunk = first;
    while (chunk.hasMore) {
      chunk = await chunkOf(name, {
        ...extra,
        offset: chunk.offset + chunk.byteCount,
        version: first.version,
      });
      expect(chunk.version).toBe(first.version);
      parts.push(Buffer.from(chunk.bytes, "base64"));
    }
    return { version: first.version, content: Buffer.concat(parts) };
  };
  const refusal = (from: string, to: string, offset: number) =>
    `The content changed since the chunk you continue from was read (version ${from}, now ${to}), so the chunk at offset ${offset} would not fit with it. Start again from offset 0 without \`version\`, then pass the new version with every later chunk.`;

  beforeEach(async () => {
    replacedPath = join(dir, `replaced-${randomBytes(4).toString("hex")}.pdf`);
    await writeFile(replacedPath, VERSION_ONE);
  });

  it("a local file replaced (renamed over) between two chunks: the next chunk is refused, saying to start again", async () => {
    const first = await chunkOf("read_replaced", { offset: 0 });
    expect(first.version).toMatch(/^\S{6,}$/);
    expect((await chunkOf("read_replaced", { offset: CHUNK, version: first.version })).version).toBe(
      first.version,
    );
    // Another version, the same size, moved into place atomically (a new inode), as deploy tools do.
    const next = `${replacedPath}.next`;
    await writeFile(next, VERSION_TWO);
    await rename(next, replacedPath);
    const refused = await call("read_replaced", { offset: 2 * CHUNK, version: first.version });
    const again = await readAll("read_replaced");
    expect(errorText(refused)).toBe(refusal(first.version, again.version, 2 * CHUNK));
    expect(again.version).not.toBe(first.version);
    expect(again.content.equals(VERSION_TWO)).toBe(true);
  });

  it("a local file rewritten in place: a new size or a new modification time is a new version", async () => {
    const first = await chunkOf("read_replaced", { offset: 0 });
    await writeFile(replacedPath, VERSION_TWO.subarray(0, 1_000_000));
    expect(errorText(await call("read_replaced", { offset: CHUNK, version: first.version }))).toContain(
      "Start again from offset 0 without `version`",
    );
    const shorter = await chunkOf("read_replaced", { offset: 0 });
    // The same size, written in the same clock tick: only the modification time tells them apart.
    await writeFile(replacedPath, VERSION_ONE.subarray(0, 1_000_000));
    await utimes(replacedPath, new Date(), new Date(Date.now() + 60_000));
    expect(errorText(await call("read_replaced", { offset: CHUNK, version: shorter.version }))).toContain(
      "The content changed since the chunk you continue from was read",
    );
  });

  it("a ranged HTTP file with an ETag: its version is the ETag; a change between chunks is refused", async () => {
    files = await startFileServer({ range: "serve", content: VERSION_ONE, etag: true });
    const first = await chunkOf("read_remote", { url: files.url, offset: 0 });
    expect(first.version).toBe(`"${createHash("sha256").update(VERSION_ONE).digest("hex").slice(0, 16)}"`);
    files.content = VERSION_TWO;
    const refused = await call("read_remote", { url: files.url, offset: CHUNK, version: first.version });
    expect(errorText(refused)).toContain(`(version ${first.version}, now "`);
    const again = await readAll("read_remote", { url: files.url });
    expect(again.content.equals(VERSION_TWO)).toBe(true);
  });

  it("an HTTP file that changes between the requests of one chunk is refused as changed while read", async () => {
    // The first request of a call learns the size and the version; the file changes before the second.
    files = await startFileServer({
      range: "serve",
      content: VERSION_ONE,
      etag: true,
      hold: async () => {
        if (files?.hits.length === 2) files.content = VERSION_TWO;
      },
    });
    const result = await call("read_remote", { url: files.url, offset: CHUNK });
    expect(errorText(result)).toMatch(
      /^The content changed while the chunk at offset 524288 was read \(version "\w+", then "\w+"\)\. Start again from offset 0 without `version`\.$/,
    );
  });

  it("an HTTP file downloaded whole (no Range): its ETag is the version, checked by each new source", async () => {
    files = await startFileServer({ range: "refuse", content: VERSION_ONE, etag: true });
    const first = await chunkOf("read_remote", { url: files.url, offset: 0 });
    files.content = VERSION_TWO;
    expect(
      errorText(await call("read_remote", { url: files.url, offset: CHUNK, version: first.version })),
    ).toContain("Start again from offset 0");
    expect((await readAll("read_remote", { url: files.url })).content.equals(VERSION_TWO)).toBe(true);
  });

  it("a whole HTTP body without ETag or Last-Modified: a digest of the body is its version", async () => {
    files = await startFileServer({ range: "ignore", content: VERSION_ONE });
    const whole = await readAll("read_remote", { url: files.url });
    expect(whole.version).toMatch(/^sha256:[\w-]{22}$/);
    expect(whole.content.equals(VERSION_ONE)).toBe(true);
  });

  it("a source without version(): its size stands in, so at least a change of size is refused", async () => {
    let content = VERSION_ONE;
    byteSource = { size: async () => content.length, read: async (o, n) => content.subarray(o, o + n) };
    const first = await chunkOf("read_custom", { offset: 0 });
    expect(first.version).toBe(`size:${VERSION_ONE.length}`);
    content = VERSION_TWO.subarray(0, 1_100_000);
    expect(errorText(await call("read_custom", { offset: CHUNK, version: first.version }))).toBe(
      refusal(first.version, "size:1100000", CHUNK),
    );
  });

  it("a source whose version() changes while a chunk is read: refused, never answered", async () => {
    let reads = 0;
    byteSource = {
      size: async () => VERSION_ONE.length,
      read: async (o, n) => {
        reads++;
        return VERSION_ONE.subarray(o, o + n);
      },
      version: async () => `v${reads}`,
    };
    expect(errorText(await call("read_custom", { offset: 0 }))).toBe(
      "The content changed while the chunk at offset 0 was read (version v0, then v1). Start again from offset 0 without `version`.",
    );
  });

  it("refuses a version that is not a non-empty string of at most 256 characters, before reading", async () => {
    for (const version of ["", "x".repeat(257), 42, null]) {
      const result = await call("read_replaced", { offset: 0, version });
      expect(result.isError, JSON.stringify(version)).toBe(true);
    }
    const direct = await readByteChunk(fileByteSource(replacedPath), {
      offset: 0,
      byteCount: 10,
      version: 5 as unknown as string,
    }).catch((error: unknown) => error);
    expect(direct).toBeInstanceOf(RangeError);
    expect((direct as Error).message).toBe(
      "version must be a string of 1 to 256 characters (the chunk's `version`)",
    );
    const changed = await readByteChunk(fileByteSource(replacedPath), {
      offset: 0,
      byteCount: 10,
      version: "old",
    }).catch((error: unknown) => error);
    expect(changed).toBeInstanceOf(ByteSourceChangedError);
  });
});
