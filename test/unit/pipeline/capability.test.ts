import { describe, expect, it } from "vitest";
import { defineCapability } from "../../../src/decorators/define-capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { specOf } from "../../../src/pipeline/capability.js";
import { toolOf } from "../../support/unit-build.js";

const RateLimit = defineCapability({
  name: "rateLimit",
  decorator: "@RateLimit",
  options: (limit: number) => ({ limit }),
  resolve: (options) => ({ ...options, windowMs: 60_000 }),
});
const Audit = defineCapability({ name: "audit", decorator: "@Audit", options: () => ({}) });

@McpService()
class Search {
  @Tool() @RateLimit(5) query() {}
  @Tool() plain() {}
}

describe("specOf", () => {
  it("reads the spec a capability resolved for a built operation", () => {
    expect(specOf(toolOf(Search, "query"), RateLimit.capability)).toEqual({ limit: 5, windowMs: 60_000 });
  });

  it("is undefined for an operation that does not carry the capability", () => {
    expect(specOf(toolOf(Search, "plain"), RateLimit.capability)).toBeUndefined();
    expect(specOf(toolOf(Search, "query"), Audit.capability)).toBeUndefined();
  });
});
