import { describe, expect, it } from "vitest";
import { envelopeProblem } from "../../../src/transports/json-rpc-envelope.js";

describe("envelopeProblem", () => {
  it("accepts requests, notifications, responses and batches of them", () => {
    expect(envelopeProblem({ jsonrpc: "2.0", id: 1, method: "ping" })).toBeUndefined();
    expect(envelopeProblem({ jsonrpc: "2.0", id: "a", method: "tools/list", params: {} })).toBeUndefined();
    expect(envelopeProblem({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
    expect(envelopeProblem({ jsonrpc: "2.0", id: 1, result: {} })).toBeUndefined();
    expect(envelopeProblem({ jsonrpc: "2.0", id: null, error: { code: 1, message: "x" } })).toBeUndefined();
    expect(
      envelopeProblem([
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", method: "n" },
      ]),
    ).toBeUndefined();
  });

  it("names the field that is wrong and what it must be", () => {
    expect(envelopeProblem("ping")).toBe("the body must be a JSON-RPC message (an object), not a string");
    expect(envelopeProblem(null)).toBe("the body must be a JSON-RPC message (an object), not null");
    expect(envelopeProblem({ id: 1, method: "ping" })).toBe('`jsonrpc` must be "2.0", not missing');
    expect(envelopeProblem({ jsonrpc: "1.0", id: 1, method: "ping" })).toBe(
      '`jsonrpc` must be "2.0", not "1.0"',
    );
    expect(envelopeProblem({ jsonrpc: "2.0", id: 1, method: 7 })).toBe(
      "`method` must be a string, not a number",
    );
    expect(envelopeProblem({ jsonrpc: "2.0", id: {}, method: "ping" })).toBe(
      "`id` must be a string or a number, not an object",
    );
    expect(envelopeProblem({ jsonrpc: "2.0", id: Number.NaN, method: "ping" })).toMatch(/`id` must be/);
    expect(envelopeProblem({ jsonrpc: "2.0", id: 1 })).toBe(
      "the message has no `method` (a request or notification) and no `result` or `error` (a response)",
    );
  });

  it("refuses an empty batch and names the message of a batch that is wrong", () => {
    expect(envelopeProblem([])).toBe("the JSON-RPC batch is empty; send at least one message");
    expect(envelopeProblem([{ jsonrpc: "2.0", method: "a" }, [1]])).toBe(
      "message 1 of the batch must be a JSON-RPC message (an object), not an array",
    );
    expect(envelopeProblem([{ jsonrpc: "2.0", id: true, method: "a" }])).toBe(
      "`id` must be a string or a number, not a boolean (message 0 of the batch)",
    );
  });
});
