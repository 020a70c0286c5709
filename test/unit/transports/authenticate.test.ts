import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthenticatedRequest,
  type AuthOptions,
  authenticateRequest,
} from "../../../src/transports/authenticate.js";
import { type OneShotServer, oneShotServer } from "../../support/one-shot-server.js";

const debugged: string[] = [];
const logger = { debug: (m: string) => void debugged.push(m), info() {}, warn() {}, error() {} };
let options: AuthOptions = {};
let server: OneShotServer;

beforeAll(async () => {
  server = await oneShotServer(async (req, res) => {
    const request = req as AuthenticatedRequest;
    // Whatever a client sends, only authenticate decides what req.auth holds.
    request.auth = { token: "forged", clientId: "forged", scopes: [] };
    if (await authenticateRequest(request, res, options, logger))
      res.end(JSON.stringify(request.auth ?? null));
  });
});
afterAll(() => server.close());

const call = async (with_: AuthOptions, headers: Record<string, string> = {}) => {
  options = with_;
  const reply = await server.send({ headers });
  return { ...reply, json: JSON.parse(reply.body) as unknown };
};

describe("authenticateRequest", () => {
  it("lets every request through unchanged without an authenticate option", async () => {
    expect((await call({})).json).toEqual({ token: "forged", clientId: "forged", scopes: [] });
  });

  it("puts the auth info, or a principal's name as auth info, on the request", async () => {
    const info: AuthInfo = { token: "t", clientId: "alice", scopes: ["read"] };
    expect((await call({ authenticate: async () => info })).json).toEqual(info);
    expect(
      (await call({ authenticate: (req) => req.headers["x-user"] as string }, { "x-user": "bob" })).json,
    ).toEqual({
      token: "",
      clientId: "bob",
      scopes: [],
    });
  });

  it("answers 401 with a challenge when no credentials came, and invalid_token when they were refused", async () => {
    const refuse = { authenticate: () => undefined };
    const missing = await call(refuse);
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toBe('Bearer realm="mcp"');
    expect(missing.json).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/requires authentication/) },
    });
    const custom = { authenticate: () => "", wwwAuthenticate: 'Bearer resource_metadata="https://x/meta"' };
    const bad = await call(custom, { authorization: "Bearer nope" });
    expect(bad.status).toBe(401);
    expect(bad.headers["www-authenticate"]).toBe(
      'Bearer resource_metadata="https://x/meta", error="invalid_token"',
    );
    expect(bad.json).toMatchObject({
      error: { message: expect.stringMatching(/credentials were not accepted/) },
    });
  });

  it("treats a verifier that throws as a refusal, logged at debug", async () => {
    debugged.length = 0;
    const reply = await call({
      authenticate: () => {
        throw new Error("jwt expired");
      },
    });
    expect(reply.status).toBe(401);
    expect(debugged).toEqual(["authenticate refused a request"]);
  });

  it("with allowAnonymous, serves a refused request with no auth at all (not the forged one)", async () => {
    const reply = await call({ authenticate: () => null, allowAnonymous: true });
    expect([reply.status, reply.json]).toEqual([200, null]);
  });
});
