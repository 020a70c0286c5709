import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { describe, expect, it } from "vitest";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import { callerOf } from "../../../../src/protocol/calls/caller.js";
import { withEnvelope } from "../../../../src/protocol/calls/request-envelope.js";
import { newSession } from "../../../../src/protocol/session.js";

const runtime = { principalOf: (auth: AuthInfo) => auth.clientId } as AppRuntime;
const alice: AuthInfo = { token: "t", clientId: "alice", scopes: [] };
const extraOf = (fields: Partial<RequestExtra>) => fields as RequestExtra;

describe("callerOf", () => {
  it("gives a 2025 session's caller its session id, and its principal as owner when authenticated", () => {
    const session = newSession(
      () => "s1",
      () => undefined,
    );
    expect(callerOf(runtime, session, extraOf({ sessionId: "s1" }))()).toEqual({
      auth: undefined,
      owner: "session:s1",
      sessionId: "s1",
    });
    expect(callerOf(runtime, session, extraOf({ sessionId: "s1", authInfo: alice }))()).toEqual({
      auth: alice,
      owner: "principal:alice",
      sessionId: "s1",
    });
  });

  it("gives no session id to a stateless or 2026-07-28 request, which has no session that lasts", () => {
    const stateless = newSession(
      () => "r1",
      () => undefined,
      true,
    );
    expect(callerOf(runtime, stateless, extraOf({ authInfo: alice }))().sessionId).toBeUndefined();
    const modern = newSession(
      () => "r2",
      () => undefined,
    );
    const extra = withEnvelope(extraOf({}), {
      logLevel: undefined,
      capabilities: undefined,
      outcome: undefined,
    });
    expect(callerOf(runtime, modern, extra)()).toMatchObject({ owner: "anonymous:r2", sessionId: undefined });
  });

  it("makes the caller once, when first asked", () => {
    let asked = 0;
    const counting = {
      principalOf: (auth: AuthInfo) => {
        asked++;
        return auth.clientId;
      },
    } as AppRuntime;
    const caller = callerOf(
      counting,
      newSession(
        () => "s",
        () => undefined,
      ),
      extraOf({ authInfo: alice }),
    );
    expect(asked).toBe(0);
    expect(caller()).toBe(caller());
    expect(asked).toBe(1);
  });
});
