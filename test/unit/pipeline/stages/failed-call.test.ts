import { describe, expect, it } from "vitest";
import { McpService } from "../../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../../src/decorators/tool.decorator.js";
import { invalidParams } from "../../../../src/errors/protocol-errors.js";
import { failedCallResult } from "../../../../src/pipeline/stages/failed-call.js";
import { recordingLogger, toolOf } from "../../../support/unit-build.js";

@McpService()
class Articles {
  @Tool() publish() {}
}
const definition = toolOf(Articles, "publish");

describe("failedCallResult", () => {
  it("answers a handler's error as an isError result with its message only, and logs it at warn", () => {
    const logger = recordingLogger();
    const error = new Error("database is read-only");
    expect(failedCallResult(definition, error, logger)).toEqual({
      content: [{ type: "text", text: "database is read-only" }],
      isError: true,
    });
    expect(logger.lines).toEqual([
      {
        level: "warn",
        message: 'tool "publish" (Articles.publish) failed: database is read-only',
        details: error,
      },
    ]);
  });

  it("logs an interceptor's refusal at debug only: it was on purpose", () => {
    const logger = recordingLogger();
    const result = failedCallResult(definition, new Error("missing scope"), logger, "interceptor");
    expect(result.isError).toBe(true);
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([
      ["debug", 'tool "publish" (Articles.publish) was refused by an interceptor: missing scope'],
    ]);
  });

  it("uses the string form of a thrown non-error", () => {
    expect(failedCallResult(definition, "plain string", recordingLogger()).content).toEqual([
      { type: "text", text: "plain string" },
    ]);
  });

  it("rethrows a protocol error, which answers as a JSON-RPC error", () => {
    const error = invalidParams("cursor is stale");
    const logger = recordingLogger();
    expect(() => failedCallResult(definition, error, logger)).toThrow(error);
    expect(logger.lines).toEqual([]);
  });
});
