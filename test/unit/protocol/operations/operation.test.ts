import { SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import { operation } from "../../../../src/protocol/operations/operation.js";
import { newSession } from "../../../../src/protocol/session.js";

describe("operation", () => {
  it("takes its method from the schema, checks params clearly, and hands the parsed request to its handler", () => {
    const op = operation(SetLevelRequestSchema, (session, request) => {
      session.logLevel = request.params.level;
      return { set: request.params.level };
    });
    expect(op.method).toBe("logging/setLevel");
    const session = newSession(
      () => "s",
      () => undefined,
    );
    const request = op.schema.parse({ method: "logging/setLevel", params: { level: "error" } });
    expect(op.handle(session, request, {} as RequestExtra)).toEqual({ set: "error" });
    expect(session.logLevel).toBe("error");
    expect(() => op.schema.parse({ method: "logging/setLevel", params: {} })).toThrow(
      /Invalid params for logging\/setLevel: `level`/,
    );
  });
});
