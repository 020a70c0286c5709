/**
 * Notifications of shared sessions (issue 28): the session's standalone GET stream is held
 * by whichever instance the client's GET landed on; a resource update caused on any
 * instance reaches it there, once, and after the holder stops the client's stream resumes
 * on another instance (`RedisEventStore`) and updates keep coming.
 *
 *   npx vitest run test/e2e/shared-session-notifications.test.ts
 */
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Cached, Invalidates, McpModule, McpService, Resource, Tool, type ToolContext } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Instances, type RoundRobinClient } from "../support/instances.js";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

const available = await redisAvailable();
const prefix = randomPrefix("shared-session-notifications");
let version = 1;

@McpService()
class ConfigService {
  @Resource("config://shared", { mimeType: "application/json" })
  @Cached({ ttl: 60_000, invalidateOn: ["config.changed"] })
  config() {
    return { version };
  }

  @Tool({ input: { text: z.string() } })
  async save({ text }: { text: string }, ctx: ToolContext) {
    return ctx.resources.create(text, { name: "note", mimeType: "text/plain" });
  }

  @Tool()
  @Invalidates("config.changed")
  bump() {
    version++;
    return { version };
  }
}

@McpModule({ services: [ConfigService] })
class ConfigModule {}

describe.skipIf(!available)("notifications of a session shared by three instances", () => {
  let instances: Instances;
  let erin: RoundRobinClient;
  const updates: string[] = [];
  let listChanges = 0;

  beforeAll(async () => {
    instances = await Instances.start(ConfigModule, {
      count: 3,
      prefix,
      sharedSessions: true,
      sharedEventStore: true,
      appOptions: { ephemeral: { tools: true } },
    });
    erin = await instances.connect("erin");
    erin.next().setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    erin.next().setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanges++;
    });
  });

  afterAll(async () => {
    await instances?.close();
    await deletePrefix(prefix);
  });

  /** The instance holding the client's GET stream now (the one whose GET is still open). */
  const holder = () => [0, 1, 2].filter((i) => (instances.requests(i).GET ?? 0) > 0);

  it("delivers each update once on the GET stream, wherever the change happened", async () => {
    const client = erin.next();
    await expect.poll(() => holder().length, { timeout: 5000 }).toBe(1);
    await client.readResource({ uri: "config://shared" });
    await client.subscribeResource({ uri: "config://shared" });
    // Three changes, each on the next instance: every instance hears each one, one tells the client.
    for (let i = 0; i < 3; i++) await client.callTool({ name: "bump", arguments: {} });
    await expect.poll(() => updates.length, { timeout: 5000 }).toBe(3);
    // A round trip through every instance: no late duplicate arrives.
    for (let i = 0; i < 3; i++) await client.listTools();
    expect(updates).toEqual(["config://shared", "config://shared", "config://shared"]);
  });

  it("relays a notification started on an instance that does not hold the stream", async () => {
    const client = erin.next();
    // Each save runs on the next instance; only the one that stored it says the list changed.
    for (let i = 0; i < 3; i++) await client.callTool({ name: "save", arguments: { text: `note ${i}` } });
    await expect.poll(() => listChanges, { timeout: 5000 }).toBe(3);
    for (let i = 0; i < 3; i++) await client.listTools();
    expect(listChanges).toBe(3);
  });

  it("keeps the session and its updates after the instance holding the stream stops", async () => {
    const client = erin.next();
    const [held] = holder();
    expect(held).toBeDefined();
    const before = updates.length;
    const gets = [0, 1, 2].map((i) => (i === held ? 0 : (instances.requests(i).GET ?? 0)));
    await instances.restart(held as number);
    // The client's stream broke: it reconnects (with Last-Event-ID) to the next instance.
    await expect
      .poll(() => [0, 1, 2].some((i) => (instances.requests(i).GET ?? 0) > (gets[i] ?? 0)), {
        timeout: 10_000,
      })
      .toBe(true);
    // It resumed its stream (Last-Event-ID) on an instance that did not hold it before.
    expect([0, 1, 2].some((i) => (instances.requests(i)["GET resume"] ?? 0) > 0)).toBe(true);
    await client.callTool({ name: "bump", arguments: {} });
    await expect.poll(() => updates.length, { timeout: 5000 }).toBe(before + 1);
    // Every request of the session is still served, the restarted instance included.
    for (let i = 0; i < 3; i++) await client.listTools();
  });
});
