import { describe, expect, it } from "vitest";
import { levelPasses, newSession, sessionServes } from "../../../src/protocol/session.js";

describe("newSession", () => {
  it("starts empty: no subscriptions, nothing in flight, no principals, a live lifetime", () => {
    const session = newSession(
      () => "s1",
      () => ({ roots: {} }),
    );
    expect(session.id()).toBe("s1");
    expect(session.clientCapabilities()).toEqual({ roots: {} });
    expect([
      session.subscriptions.size,
      session.inFlight.size,
      session.unanswered.size,
      session.principals.size,
    ]).toEqual([0, 0, 0, 0]);
    expect(session.lifetime.signal.aborted).toBe(false);
    expect(session.stateless).toBe(false);
    expect(
      newSession(
        () => "s2",
        () => undefined,
        true,
      ).stateless,
    ).toBe(true);
  });
});

describe("levelPasses", () => {
  it("lets every level through without a threshold, and only as severe or more with one", () => {
    expect(levelPasses(undefined, "debug")).toBe(true);
    expect(levelPasses("warning", "error")).toBe(true);
    expect(levelPasses("warning", "warning")).toBe(true);
    expect(levelPasses("warning", "notice")).toBe(false);
    expect(levelPasses("emergency", "alert")).toBe(false);
    expect(levelPasses("debug", "emergency")).toBe(true);
  });
});

describe("sessionServes", () => {
  it("serves its own session owner and the principals that used it, nobody else", () => {
    const session = newSession(
      () => "s1",
      () => undefined,
    );
    expect(sessionServes(session, "session:s1")).toBe(true);
    expect(sessionServes(session, "session:s2")).toBe(false);
    expect(sessionServes(session, "principal:alice")).toBe(false);
    session.principals.add("principal:alice");
    expect(sessionServes(session, "principal:alice")).toBe(true);
  });
});
