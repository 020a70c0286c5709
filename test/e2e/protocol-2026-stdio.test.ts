import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";

// Runs on the compiled package; `npm test` builds it first.
const SERVER = "test/support/protocol-2026-stdio-server.mjs";
const params = { command: process.execPath, args: [SERVER], stderr: "pipe" as const };

type Mode = "legacy" | "auto" | { pin: "2026-07-28" };
const MODES: Array<[string, Mode, "legacy" | "modern"]> = [
  ["legacy", "legacy", "legacy"],
  ["auto", "auto", "modern"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }, "modern"],
];
const textOf = (result: unknown) => (result as { content: Array<{ text?: string }> }).content[0]?.text ?? "";

describe('protocol: "2026-07-28" over stdio (serveStdio picks the era per connection)', () => {
  if (!existsSync("dist/index.js"))
    throw new Error("dist/ is missing: run `npm run build` (npm test does it)");

  for (const [label, mode, era] of MODES) {
    it(`serves a v2 client in ${label} mode`, async () => {
      const client = new Client({ name: "v2-client", version: "1.0.0" }, { versionNegotiation: { mode } });
      await client.connect(new StdioClientTransport(params));
      expect(client.getProtocolEra()).toBe(era);
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: label } }))).toBe(label);
      await client.close();
    });
  }

  it("serves an SDK 1.x client (2025-11-25)", async () => {
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    await client.connect(new StdioV1(params));
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "v1" } }))).toBe("v1");
    await client.close();
  });
});
