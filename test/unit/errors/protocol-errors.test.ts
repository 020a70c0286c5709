import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  invalidParams,
  isProtocolError,
  ProtocolError,
  RESOURCE_NOT_FOUND,
  resourceNotFound,
} from "../../../src/errors/protocol-errors.js";

describe("protocol errors", () => {
  it("ProtocolError keeps its message as is, with the code and data", () => {
    const error = new ProtocolError(-32602, "limit must be at most 50", { max: 50 });
    expect(error.message).toBe("limit must be at most 50");
    expect(error).toMatchObject({ code: -32602, data: { max: 50 }, name: "ProtocolError" });
  });

  it("resourceNotFound answers -32002 with the URI in data, as the specification asks", () => {
    const error = resourceNotFound("articles://blog/missing");
    expect(error.code).toBe(RESOURCE_NOT_FOUND);
    expect(RESOURCE_NOT_FOUND).toBe(-32002);
    expect(error.message).toBe("Resource not found: articles://blog/missing");
    expect(error.data).toEqual({ uri: "articles://blog/missing" });
  });

  it("invalidParams uses the JSON-RPC invalid-params code", () => {
    const error = invalidParams("cursor is stale", { hint: "start over" });
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.data).toEqual({ hint: "start over" });
  });

  it("isProtocolError tells protocol errors (ours and the SDK's) from any other failure", () => {
    expect(isProtocolError(invalidParams("x"))).toBe(true);
    expect(isProtocolError(new McpError(ErrorCode.InvalidRequest, "bad"))).toBe(true);
    expect(isProtocolError(new Error("boom"))).toBe(false);
    expect(isProtocolError({ code: -32602, message: "not an Error" })).toBe(false);
  });
});
