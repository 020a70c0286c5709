import { describe, expect, it } from "vitest";
import { CONNECTION_LIMIT_DEFAULTS, serverTimeouts } from "../../../src/transports/connection-limits.js";

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
