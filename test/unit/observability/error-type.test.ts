import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { INTERNAL_ERROR, jsonRpcErrorCode } from "../../../src/observability/error-type.js";
import { META_GETTER } from "../../../src/observability/meta-carrier.js";

describe("jsonRpcErrorCode", () => {
  it("is the error's own whole-number code, as the SDK answers it", () => {
    expect(jsonRpcErrorCode(new McpError(ErrorCode.InvalidParams, "bad"))).toBe(-32602);
    expect(jsonRpcErrorCode(Object.assign(new Error("x"), { code: -32002 }))).toBe(-32002);
  });

  it("is internal error for anything else", () => {
    for (const error of [new Error("boom"), "text", undefined, { code: "ECONNRESET" }, { code: 1.5 }])
      expect(jsonRpcErrorCode(error)).toBe(INTERNAL_ERROR);
  });
});

describe("META_GETTER", () => {
  it("hands the propagator string values of _meta only", () => {
    const meta = { traceparent: "00-abc", other: { nested: true }, n: 3 };
    expect(META_GETTER.get(meta, "traceparent")).toBe("00-abc");
    expect(META_GETTER.get(meta, "other")).toBeUndefined();
    expect(META_GETTER.get(meta, "n")).toBeUndefined();
    expect(META_GETTER.get(meta, "missing")).toBeUndefined();
    expect(META_GETTER.keys(meta)).toEqual(["traceparent", "other", "n"]);
  });
});
