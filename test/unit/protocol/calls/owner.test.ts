import { createHash } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { describe, expect, it } from "vitest";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import { ownerOf, principalOwner } from "../../../../src/protocol/calls/owner.js";
import { withEnvelope } from "../../../../src/protocol/calls/request-envelope.js";
import { newSession } from "../../../../src/protocol/session.js";

const byClientId = (auth: AuthInfo) => auth.clientId;
const auth = (clientId: string, token = "secret-token"): AuthInfo => ({ clientId, token, scopes: [] });
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("principalOwner", () => {
  it("names a principal by its id, escaping ids that look like the other forms", () => {
    expect(principalOwner(byClientId, auth("alice"))).toBe("principal:alice");
    expect(principalOwner(byClientId, auth("token:abc"))).toBe("principal:id:token:abc");
    expect(principalOwner(byClientId, auth("id:x"))).toBe("principal:id:id:x");
    expect(principalOwner(() => 42 as unknown as string, auth(""))).toBe("principal:42");
  });

  it("owns what a nameless principal stores by a digest of its token, never the token itself", () => {
    const owner = principalOwner(byClientId, auth("", "tok-1"));
    expect(owner).toBe(`principal:token:${sha("tok-1")}`);
    expect(owner).not.toContain("tok-1");
    expect(principalOwner(byClientId, auth("", "tok-2"))).not.toBe(owner);
    expect(principalOwner(byClientId, auth("", ""))).toBeUndefined();
  });
});

describe("ownerOf", () => {
  const runtime = { principalOf: byClientId } as unknown as AppRuntime;
  const session = newSession(
    () => "sess-1",
    () => undefined,
  );
  const extra = (fields: Partial<RequestExtra>) => ({ ...fields }) as RequestExtra;

  it("is the principal when the request is authenticated", () => {
    expect(ownerOf(runtime, session, extra({ authInfo: auth("bob"), sessionId: "sess-1" }))).toBe(
      "principal:bob",
    );
  });

  it("is the request's session, else the serving session, when no principal is named", () => {
    expect(ownerOf(runtime, session, extra({ sessionId: "from-transport" }))).toBe("session:from-transport");
    expect(ownerOf(runtime, session, extra({}))).toBe("session:sess-1");
    expect(ownerOf(runtime, session, extra({ authInfo: auth("", "") }))).toBe("session:sess-1");
  });

  it("is anonymous for an unauthenticated 2026-07-28 request, which has no session to own data", () => {
    const replayed = withEnvelope(extra({}), {
      logLevel: undefined,
      capabilities: undefined,
      outcome: undefined,
    });
    expect(ownerOf(runtime, session, replayed)).toBe("anonymous:sess-1");
  });
});
