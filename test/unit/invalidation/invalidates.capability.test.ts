import {
  type BusEvent,
  createTestClient,
  EVENT_BUS,
  InMemoryEventBus,
  Invalidates,
  LOGGER,
  McpFactory,
  McpModule,
  McpService,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

const bus = new InMemoryEventBus();
const seen: BusEvent[] = [];
bus.subscribe((event) => {
  seen.push(event);
  if (event.name === "broken.listener") throw new Error("listener failed");
});
const errors: string[] = [];
const logger = { debug() {}, info() {}, warn() {}, error: (message: string) => void errors.push(message) };

@McpService()
class Sites {
  @Tool({ input: { site: z.string() } })
  @Invalidates("site.changed", "reports.changed")
  updateSite({ site }: { site: string }) {
    return { updated: site };
  }

  @Tool({ input: { site: z.string() } })
  @Invalidates("site.changed")
  failingUpdate(_input: { site: string }) {
    throw new Error("write failed");
  }

  @Tool({ input: {} })
  @Invalidates("broken.listener", "after.broken")
  touch() {
    return { touched: true };
  }
}

@McpModule({
  services: [Sites],
  providers: [
    { provide: EVENT_BUS, useValue: bus },
    { provide: LOGGER, useValue: logger },
  ],
})
class SitesModule {}

let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  seen.length = 0;
  errors.length = 0;
});

describe("@Invalidates", () => {
  it("emits its events, in order, with the call's input, once the tool succeeded", async () => {
    client = await createTestClient(SitesModule);
    await client.callTool({ name: "update_site", arguments: { site: "a" } });
    expect(seen).toEqual([
      { name: "site.changed", payload: { site: "a" } },
      { name: "reports.changed", payload: { site: "a" } },
    ]);
  });

  it("emits nothing when the tool failed", async () => {
    client = await createTestClient(SitesModule);
    const result = await client.callTool({ name: "failing_update", arguments: { site: "a" } });
    expect(result.isError).toBe(true);
    expect(seen).toEqual([]);
  });

  it("logs an event that failed to go out, still emits the next ones, and answers the call", async () => {
    client = await createTestClient(SitesModule);
    const result = await client.callTool({ name: "touch", arguments: {} });
    expect(result.structuredContent).toEqual({ touched: true });
    expect(seen.map((e) => e.name)).toEqual(["broken.listener", "after.broken"]);
    expect(errors).toEqual(['emitting "broken.listener" after Sites.touch failed']);
  });

  it("refuses an empty event name at start-up, naming the method and the fix", async () => {
    @McpService()
    class Bad {
      @Tool({ input: {} })
      @Invalidates("")
      run() {
        return {};
      }
    }
    @McpModule({ services: [Bad], providers: [{ provide: LOGGER, useValue: logger }] })
    class BadModule {}
    await expect(McpFactory.create(BadModule, { name: "bad", version: "0.0.0" })).rejects.toThrow(
      /Bad\.run.*@Invalidates takes non-empty event names, not ""[\s\S]*@Invalidates\("articles\.changed"\)/,
    );
  });
});
