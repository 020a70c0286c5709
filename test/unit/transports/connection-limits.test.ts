import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import {
  CONNECTION_LIMIT_DEFAULTS,
  ConnectionCap,
  serverTimeouts,
} from "../../../src/transports/connection-limits.js";

describe("serverTimeouts", () => {
  it("uses the defaults, checking expiry often enough for them to mean what they say", () => {
    expect(serverTimeouts({})).toEqual({
      headersTimeout: CONNECTION_LIMIT_DEFAULTS.headersTimeoutMs,
      requestTimeout: CONNECTION_LIMIT_DEFAULTS.requestTimeoutMs,
      keepAliveTimeout: CONNECTION_LIMIT_DEFAULTS.keepAliveTimeoutMs,
      connectionsCheckingInterval: 1_000,
    });
  });

  it("keeps the headers timeout within the request timeout, as node:http requires", () => {
    expect(serverTimeouts({ headersTimeoutMs: 5_000, requestTimeoutMs: 2_000 })).toMatchObject({
      headersTimeout: 2_000,
      requestTimeout: 2_000,
      connectionsCheckingInterval: 500,
    });
  });

  it("refuses a limit that is not a number >= 1, naming it", () => {
    expect(() => serverTimeouts({ requestTimeoutMs: 0 })).toThrow(
      "HTTP option requestTimeoutMs must be a number >= 1, got 0",
    );
    expect(() => serverTimeouts({ keepAliveTimeoutMs: Number.POSITIVE_INFINITY })).toThrow(
      "keepAliveTimeoutMs",
    );
  });
});

describe("ConnectionCap", () => {
  it("admits up to max sockets, refuses the next for good, warns once, and frees a place when one closes", () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const cap = new ConnectionCap(1, logger);
    const first = new EventEmitter() as Socket;
    const second = new EventEmitter() as Socket;
    const third = new EventEmitter() as Socket;
    expect(cap.admit(first)).toBe(true);
    expect(cap.admit(first)).toBe(true);
    expect(cap.admit(second)).toBe(false);
    expect(cap.admit(third)).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("1 connections are open (maxConnections)");
    first.emit("close");
    // The refused one stays refused; a new one takes the freed place.
    expect(cap.wasRefused(second)).toBe(true);
    expect(cap.admit(second)).toBe(false);
    expect(cap.admit(new EventEmitter() as Socket)).toBe(true);
  });
});
