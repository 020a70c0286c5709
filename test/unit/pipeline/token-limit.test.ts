import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/budget/budget.capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import {
  callTokenLimit,
  isSlicedRead,
  MAX_TOKENS_META,
  requestedTokenLimit,
  SLICED_READ,
  tokenLimit,
} from "../../../src/pipeline/token-limit.js";
import { toolOf } from "../../support/unit-build.js";

describe("requestedTokenLimit", () => {
  it("reads a positive whole number from _meta['frugal/maxTokens'] and ignores anything else", () => {
    expect(requestedTokenLimit({ [MAX_TOKENS_META]: 500 })).toBe(500);
    for (const asked of [0, -5, 1.5, "500", Number.NaN, Number.POSITIVE_INFINITY, null]) {
      expect(requestedTokenLimit({ [MAX_TOKENS_META]: asked })).toBeUndefined();
    }
    expect(requestedTokenLimit({})).toBeUndefined();
  });
});

describe("tokenLimit", () => {
  it("lets a client lower the declared budget but never raise it", () => {
    expect(tokenLimit(2000, { [MAX_TOKENS_META]: 500 })).toBe(500);
    expect(tokenLimit(2000, { [MAX_TOKENS_META]: 9000 })).toBe(2000);
    expect(tokenLimit(2000, {})).toBe(2000);
  });

  it("is the client's limit when nothing is declared, and none when neither exists", () => {
    expect(tokenLimit(undefined, { [MAX_TOKENS_META]: 300 })).toBe(300);
    expect(tokenLimit(undefined, {})).toBeUndefined();
  });
});

describe("callTokenLimit", () => {
  it("uses the operation's resolved budget: the method's, else the app's", () => {
    @McpService()
    class Logs {
      @Tool() @Budget(800) summary() {}
      @Tool() tail() {}
    }
    const withApp = { appBudget: 3000 };
    expect(callTokenLimit(toolOf(Logs, "summary", withApp), { [MAX_TOKENS_META]: 1000 })).toBe(800);
    expect(callTokenLimit(toolOf(Logs, "tail", withApp), {})).toBe(3000);
    expect(callTokenLimit(toolOf(Logs, "tail"), {})).toBeUndefined();
  });
});

describe("isSlicedRead", () => {
  it("is true only for the symbol mark, which no request can carry", () => {
    expect(isSlicedRead({ [SLICED_READ]: true } as Record<string, unknown>)).toBe(true);
    expect(isSlicedRead({ "frugal.slicedRead": true })).toBe(false);
    expect(isSlicedRead(JSON.parse('{"Symbol(frugal.slicedRead)": true}'))).toBe(false);
  });
});
