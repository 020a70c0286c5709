import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJsonRpcError } from "../../../src/transports/json-rpc-response.js";
import { type OneShotServer, oneShotServer } from "../../support/one-shot-server.js";

let server: OneShotServer;
beforeAll(async () => {
  server = await oneShotServer((req, res) => {
    if (req.url === "/late") {
      // Headers already out (a stream began): the error cannot be sent, the response just ends.
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: started\n\n");
    }
    sendJsonRpcError(res, 403, -32000, "Forbidden: é");
  });
});
afterAll(() => server.close());

describe("sendJsonRpcError", () => {
  it("answers with the status and a JSON-RPC error body of the exact byte length", async () => {
    const reply = await server.send({ method: "GET" });
    expect(reply.status).toBe(403);
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(reply.headers["content-length"]).toBe(String(Buffer.byteLength(reply.body)));
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Forbidden: é" },
      id: null,
    });
  });

  it("only ends a response whose headers were already sent", async () => {
    const reply = await server.send({ method: "GET", path: "/late" });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe("data: started\n\n");
  });
});
