import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BodyTooLargeError, readBody } from "../../../src/transports/read-body.js";
import { type OneShotServer, oneShotServer } from "../../support/one-shot-server.js";

let server: OneShotServer;
beforeAll(async () => {
  server = await oneShotServer(async (req, res) => {
    try {
      const body = await readBody(req, 16);
      res.end(`read:${body}`);
    } catch (error) {
      res.statusCode = 413;
      res.end(error instanceof BodyTooLargeError ? "too large" : String(error));
    }
  });
});
afterAll(() => server.close());

describe("readBody", () => {
  it("reads a body up to the limit, as UTF-8, across chunks", async () => {
    expect((await server.send({ body: "0123456789abcdef" })).body).toBe("read:0123456789abcdef");
    expect((await server.send({ chunks: ["é", "t", "é"] })).body).toBe("read:été");
    expect((await server.send({})).body).toBe("read:");
  });

  it("refuses a body whose declared length passes the limit before reading it", async () => {
    const reply = await server.send({ body: "x".repeat(17), headers: { "content-length": "17" } });
    expect([reply.status, reply.body]).toEqual([413, "too large"]);
  });

  it("refuses a chunked body (no declared length) as soon as it passes the limit", async () => {
    const reply = await server.send({
      chunks: ["x".repeat(10), "y".repeat(10)],
      headers: { "transfer-encoding": "chunked" },
    });
    expect([reply.status, reply.body]).toEqual([413, "too large"]);
  });
});
