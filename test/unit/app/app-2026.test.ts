import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpApp2026 } from "../../../src/app/app-2026.js";
import { McpModule } from "../../../src/decorators/mcp-module.decorator.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import { McpFactory } from "../../../src/runtime/mcp-factory.js";
import { createTestClient } from "../../../src/testing/create-test-client.js";

@McpService()
class Echo {
  @Tool({ input: { text: z.string() } }) echo({ text }: { text: string }) {
    return text;
  }
}
@McpModule({ services: [Echo] })
class EchoModule {}

const options = { name: "echo", version: "1.0.0", protocol: "2026-07-28" as const };
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]?.text;

describe('McpApp2026 (protocol: "2026-07-28")', () => {
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(EchoModule, options)) as McpApp2026;
  });
  afterAll(() => app.close());

  it("is what McpFactory.create builds when the protocol asks for it", () => {
    expect(app).toBeInstanceOf(McpApp2026);
  });

  it("serves a 2026-07-28 connection and counts it as a session while it is open", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new Client(
      { name: "t", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(clientSide);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "modern" } }))).toBe("modern");
    expect(app.stats().sessions).toBe(1);
    await client.close();
  });

  it("still serves a 2025 client over an SDK 1.x transport", async () => {
    const client = await createTestClient(EchoModule, { protocol: "2026-07-28" });
    try {
      expect(client.app).toBeInstanceOf(McpApp2026);
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: "legacy" } }))).toBe("legacy");
    } finally {
      await client.close();
    }
  });

  it("refuses a new connection once closed", async () => {
    const closing = (await McpFactory.create(EchoModule, options)) as McpApp2026;
    await closing.close();
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    await expect(closing.connectAnyEra(serverSide)).rejects.toThrow(
      "this app is closed; create a new one with McpFactory.create",
    );
  });

  it("refuses at start-up a tool that declares an invalid x-mcp-header, naming it and the fix", async () => {
    @McpService()
    class Regions {
      @Tool({ input: { place: z.object({ city: z.string() }).meta({ "x-mcp-header": "Place" }) } })
      weather() {}
    }
    @McpModule({ services: [Regions] })
    class RegionsModule {}
    const error = await McpFactory.create(RegionsModule, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrugalConfigError);
    expect((error as Error).message).toMatch(
      /^Regions\.weather: its input declares an invalid x-mcp-header \(.*string, integer or boolean property.*\)\. Fix: declare x-mcp-header only on a string, integer or boolean property/,
    );
  });
});
