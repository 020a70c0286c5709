import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** How a test file server answers a `Range` request: 206, the whole body (200), or 501. */
export type RangeMode = "serve" | "ignore" | "refuse";

/** One request the server saw, and what it answered. */
export interface Hit {
  range?: string;
  ifNoneMatch?: string;
  /** 206, 200, 304, 501, 500, or "truncated" (a 200 cut off mid-body). */
  answer: number | "truncated";
}

export interface FileServerOptions {
  range: RangeMode;
  content: Buffer;
  /** Send an `ETag` (a digest of the content) and answer `If-None-Match` with 304. */
  etag?: boolean;
  /** How the next full downloads fail, in order: 500, or a body cut off after a third. */
  failures?: Array<500 | "truncated">;
  /** Awaited before answering each request (a gate held by the test). */
  hold?: () => Promise<void>;
}

export interface FileServer {
  readonly url: string;
  readonly hits: Hit[];
  /** What the server serves from now on (a new version gets a new `ETag`). */
  content: Buffer;
  /** Full bodies the server sent whole (200s, not cut off). */
  fullDownloads(): number;
  close(): Promise<void>;
}

/**
 * A local HTTP file server that serves, ignores or refuses `Range`, counting every request,
 * for tests of `httpByteSource`.
 */
export async function startFileServer(options: FileServerOptions): Promise<FileServer> {
  const hits: Hit[] = [];
  const failures = [...(options.failures ?? [])];
  const state = { content: options.content };
  const server = createServer((req, res) => {
    const hit: Hit = { answer: 0 };
    if (req.headers.range !== undefined) hit.range = req.headers.range;
    if (req.headers["if-none-match"] !== undefined) hit.ifNoneMatch = req.headers["if-none-match"];
    hits.push(hit);
    void (async () => {
      await options.hold?.();
      const content = state.content;
      const etag = options.etag
        ? `"${createHash("sha256").update(content).digest("hex").slice(0, 16)}"`
        : undefined;
      const validators: Record<string, string> = etag ? { etag } : {};
      const answer = (status: number, headers: Record<string, string | number>, body?: Buffer | string) => {
        hit.answer = status;
        res.writeHead(status, headers);
        res.end(body);
      };
      if (etag !== undefined && req.headers["if-none-match"] === etag) return answer(304, validators);
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
      if (range && options.range === "refuse") return answer(501, {}, "ranges are not implemented here");
      if (range && options.range === "serve") {
        const start = Number(range[1]);
        const end = Math.min(Number(range[2]), content.length - 1);
        return answer(
          206,
          { ...validators, "content-range": `bytes ${start}-${end}/${content.length}` },
          content.subarray(start, end + 1),
        );
      }
      const failure = failures.shift();
      if (failure === 500) return answer(500, {}, "try again later");
      if (failure === "truncated") {
        hit.answer = "truncated";
        res.writeHead(200, { ...validators, "content-length": content.length });
        res.write(content.subarray(0, Math.floor(content.length / 3)), () => res.destroy());
        return;
      }
      answer(200, { ...validators, "content-length": content.length }, content);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/report.pdf`;
  return {
    url,
    hits,
    get content() {
      return state.content;
    },
    set content(next: Buffer) {
      state.content = next;
    },
    fullDownloads: () => hits.filter((hit) => hit.answer === 200).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
