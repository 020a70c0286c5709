import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { bindSession, sessionServer } from "../../../src/app/session-server.js";
import { newSession, type ServedSession } from "../../../src/protocol/session.js";
import type { SessionRecord } from "../../../src/sessions/session-store.js";
import type { SessionBinding } from "../../../src/transports/session-host.js";

const validator = new AjvJsonSchemaValidator();
const options = { name: "app", version: "1.0.0", instructions: "be brief" };

/** What a server offers its client (read the way the SDK reads it when it answers initialize). */
const offered = (stateless: boolean) =>
  (sessionServer(options, validator, stateless) as unknown as { _capabilities: object })._capabilities;

describe("sessionServer", () => {
  it("offers subscriptions and list changes to a session, none to a stateless request", () => {
    expect(offered(false)).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
    });
    expect(offered(true)).toEqual({ tools: {}, resources: {}, prompts: {}, logging: {}, completions: {} });
  });
});

describe("bindSession", () => {
  const served = (): ServedSession => ({
    ...newSession(
      () => "s",
      () => undefined,
    ),
    server: sessionServer(options, validator, false),
  });
  const record = (logLevel: SessionRecord["logLevel"], subscriptions: string[]) =>
    ({
      logLevel,
      subscriptions,
      clientCapabilities: { roots: {} },
      clientInfo: undefined,
    }) as unknown as SessionRecord;

  it("saves the session's changes, applies what other instances change, and rebuilds a revived one", async () => {
    const saved: unknown[] = [];
    let follow: ((record: SessionRecord) => void) | undefined;
    const binding: SessionBinding = {
      revive: record("info", ["file:///a"]),
      persist: async (change) => void saved.push(change),
      follow: (apply) => {
        follow = apply;
      },
      endsOnClose: () => true,
      notifiesHere: () => false,
    };
    const session = served();
    bindSession(session, binding);
    // Revived: the record's state, and the client's capabilities on the server.
    expect(session.logLevel).toBe("info");
    expect([...session.subscriptions]).toEqual(["file:///a"]);
    expect(session.server.getClientCapabilities()).toEqual({ roots: {} });
    expect(session.notifiesHere?.()).toBe(false);
    await session.persist?.({ subscribe: "file:///b" });
    expect(saved).toEqual([{ subscribe: "file:///b" }]);
    follow?.(record("error", ["file:///c"]));
    expect(session.logLevel).toBe("error");
    expect([...session.subscriptions]).toEqual(["file:///c"]);
  });
});
