import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpModule } from "../../../src/decorators/mcp-module.decorator.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { inject, injectable } from "../../../src/decorators/tsyringe.js";
import { UseInterceptors } from "../../../src/decorators/use-interceptors.decorator.js";
import { Ephemeral } from "../../../src/ephemeral/ephemeral.capability.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import type { InterceptedCall, ProtocolResult } from "../../../src/pipeline/interceptor.js";
import { McpFactory } from "../../../src/runtime/mcp-factory.js";
import { createTestClient } from "../../../src/testing/create-test-client.js";
import { LOGGER } from "../../../src/tokens.js";
import { recordingLogger } from "../../support/unit-build.js";

const options = { name: "t", version: "1" };

@McpService()
class Hello {
  @Tool({ input: { name: z.string() } }) hello({ name }: { name: string }) {
    return `hello ${name}`;
  }
}
@McpModule({ services: [Hello] })
class HelloModule {}

async function startupMessage(run: () => Promise<unknown>): Promise<string> {
  const error = await run().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FrugalConfigError);
  return (error as Error).message;
}

describe("McpFactory.create: app options", () => {
  it("refuses a protocol it does not serve, and bad budget and text options, with the fix", async () => {
    expect(
      await startupMessage(() => McpFactory.create(HelloModule, { ...options, protocol: "2024" as never })),
    ).toBe(
      'McpFactory.create options: `protocol` is "2024", which this version does not serve. Fix: use protocol: "2026-07-28", or leave it out to serve MCP up to 2025-11-25.',
    );
    expect(await startupMessage(() => McpFactory.create(HelloModule, { ...options, budget: 0 }))).toBe(
      "McpFactory.create options: `budget` must be a positive whole number, not 0. Fix: e.g. budget: 2000.",
    );
    expect(
      await startupMessage(() => McpFactory.create(HelloModule, { ...options, text: "yaml" as never })),
    ).toMatch(/^McpFactory\.create options: `text` must be "auto", "json" or "compact", not "yaml"/);
  });

  it("warns when the cursor secret is too short to be safe", async () => {
    const logger = recordingLogger();
    const app = await McpFactory.create(HelloModule, {
      ...options,
      cursorSecret: "short",
      providers: [{ provide: LOGGER, useValue: logger }],
    });
    await app.close();
    expect(logger.lines.map((line) => line.message)).toContain(
      "a cursorSecret is shorter than 16 bytes; use a long random secret in production",
    );
  });
});

describe("McpFactory.create: composition", () => {
  it("serves the module's tools through the composed pipeline", async () => {
    const client = await createTestClient(HelloModule);
    try {
      expect(await client.callTool({ name: "hello", arguments: { name: "Ada" } })).toMatchObject({
        content: [{ type: "text", text: "hello Ada" }],
      });
      const refused = await client.callTool({ name: "hello", arguments: {} });
      expect(refused).toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });

  it("adds the resource tools only when something stores results or asks for them", async () => {
    @McpService()
    class Logs {
      @Tool() @Ephemeral() dump() {
        return ["a"];
      }
    }
    @McpModule({ services: [Logs] })
    class LogsModule {}
    const names = async (module: Function, more = {}) => {
      const client = await createTestClient(module, more);
      try {
        return (await client.listTools()).tools.map((tool) => tool.name);
      } finally {
        await client.close();
      }
    };
    expect(await names(HelloModule)).toEqual(["hello"]);
    expect(await names(LogsModule)).toEqual(
      expect.arrayContaining(["dump", "read_resource", "search_resource"]),
    );
    expect(await names(HelloModule, { ephemeral: { tools: true, readToolName: "read_slice" } })).toContain(
      "read_slice",
    );
  });

  it("builds an interceptor class once per app, with constructor injection, shared with services that inject it", async () => {
    @injectable()
    class Audit {
      readonly calls: string[] = [];
      constructor(@inject("label") readonly label: string) {}
      async intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>) {
        this.calls.push(`${this.label}:${call.name}`);
        return next();
      }
    }
    @McpService()
    class Audited {
      constructor(readonly audit: Audit) {}
      // The handler reads the calls its injected Audit saw: the interceptors' own only if shared.
      @Tool() @UseInterceptors(Audit) one() {
        return this.audit.calls.join(",");
      }
    }
    @McpModule({ services: [Audited], providers: [{ provide: "label", useValue: "audit" }] })
    class AuditedModule {}
    const client = await createTestClient(AuditedModule, { interceptors: [Audit] });
    try {
      // App-wide and method-level Audit are one instance: it ran twice before the handler.
      expect(await client.callTool({ name: "one", arguments: {} })).toMatchObject({
        content: [{ type: "text", text: "audit:one,audit:one" }],
      });
    } finally {
      await client.close();
    }
  });
});
