import { describe, expect, it } from "vitest";
import {
  bodyVersion,
  contentRange,
  readWholeBody,
  validatorsOf,
  validatorVersion,
} from "../../../src/pagination/http-responses.js";

const withHeaders = (headers: Record<string, string>, body: string | null = null) =>
  new Response(body, { headers });

/** A body sent in `count` pieces of `size` bytes, without a declared length. */
function chunked(count: number, size: number): Response {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === count) return controller.close();
      controller.enqueue(new Uint8Array(size).fill(sent++));
    },
  });
  return new Response(stream);
}

describe("http responses", () => {
  it("reads the validators and the content range a server sent", () => {
    expect(validatorsOf(withHeaders({ etag: '"v1"', "last-modified": "Tue" }))).toEqual({
      etag: '"v1"',
      lastModified: "Tue",
    });
    expect(validatorsOf(withHeaders({}))).toEqual({});
    expect(contentRange(withHeaders({ "content-range": "bytes 100-199/1234" }))).toEqual({
      start: 100,
      total: 1234,
    });
    expect(contentRange(withHeaders({ "content-range": "bytes */1234" }))).toEqual({ total: 1234 });
    expect(contentRange(withHeaders({ "content-range": "bytes 0-9/*" }))).toEqual({ start: 0 });
    expect(contentRange(withHeaders({}))).toBeUndefined();
  });

  it("reads a whole body in pieces, with its validators", async () => {
    const response = chunked(3, 4);
    response.headers.set("etag", '"v2"');
    const body = await readWholeBody(response, "https://x.test/a", 12);
    expect([...body.bytes]).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    expect(body.etag).toBe('"v2"');
  });

  it("refuses a body over maxFullBytes, declared or read, naming the option", async () => {
    await expect(
      readWholeBody(withHeaders({ "content-length": "20" }, "x".repeat(20)), "https://x.test/a", 10),
    ).rejects.toThrow(
      "https://x.test/a does not serve byte ranges, and its body (20 bytes) is larger than maxFullBytes (10)",
    );
    await expect(readWholeBody(chunked(3, 4), "https://x.test/a", 10)).rejects.toThrow(
      "its body (more than 10 bytes) is larger than maxFullBytes (10)",
    );
  });

  it("names a version by its validators, else by a digest of the body", () => {
    expect(validatorVersion({ etag: '"v1"', lastModified: "Tue" })).toBe('"v1"');
    expect(validatorVersion({ lastModified: "Tue" })).toBe("last-modified:Tue");
    expect(validatorVersion(undefined)).toBeUndefined();
    const bytes = new TextEncoder().encode("hello");
    expect(bodyVersion({ bytes })).toMatch(/^sha256:[A-Za-z0-9_-]{22}$/);
    expect(bodyVersion({ bytes: new TextEncoder().encode("hello") })).toBe(bodyVersion({ bytes }));
    expect(bodyVersion({ bytes: new TextEncoder().encode("other") })).not.toBe(bodyVersion({ bytes }));
  });
});
