import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { McpApp2026 } from "../../src/app/app-2026.js";

/** A tool that waits until the test opens its gate, so a call can be seen running. */
let openGate: () => void = () => {};

@McpService()
class GatedService {
  @Tool({ description: "Waits for the test, then echoes", input: { text: z.string() } })
  async gated({ text }: { text: string }) {
    await new Promise<void>((resolve) => {
      openGate = resolve;
    });
    return text;
  }
}

@McpModule({ services: [GatedService] })
class GatedModule {}

describe('app.stats() on a protocol: "2026-07-28" app', () => {
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(GatedModule, {
      name: "stats",
      version: "1.0.0",
      protocol: "2026-07-28",
    })) as McpApp2026;
  });
  afterAll(() => app.close());

  for (const [label, mode] of [
    ["legacy", "legacy"],
    ["pinned 2026-07-28", { pin: "2026-07-28" }],
  ] as const) {
    it(`counts a running call of a v2 client in ${label} mode, and the call's end`, async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await app.connectAnyEra(serverSide);
      const client = new Client({ name: "stats", version: "1.0.0" }, { versionNegotiation: { mode } });
      await client.connect(clientSide);
      expect(app.stats().inFlight).toBe(0);
      const callsBefore = app.stats().operations.gated?.calls ?? 0;

      const call = client.callTool({ name: "gated", arguments: { text: "done" } });
      await vi.waitFor(() => expect(app.stats().inFlight).toBe(1));
      expect(app.stats().sessions).toBeGreaterThanOrEqual(1);
      openGate();
      expect(((await call).content as Array<{ text: string }>)[0]?.text).toBe("done");
      expect(app.stats().inFlight).toBe(0);
      expect(app.stats().operations.gated?.calls).toBe(callsBefore + 1);
      await client.close();
    });
  }
});
