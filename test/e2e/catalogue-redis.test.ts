/**
 * `app.catalogue.enable/disable` on one instance reaches every instance that shares its
 * `RedisEventBus`: their lists change, their sessions are told, and their calls are refused.
 */
import { EVENT_BUS, RedisEventBus } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogueModule, listChanged, streamsOpen, toolNames } from "../support/catalogue-services.js";
import { randomPrefix, redisAvailable } from "../support/services.js";

const available = await redisAvailable();
const channel = `${randomPrefix("catalogue-redis")}events`;

describe.skipIf(!available)("catalogue changes across instances (RedisEventBus)", () => {
  let a: TestClient;
  let b: TestClient;
  beforeAll(async () => {
    const instance = () =>
      createTestClient(CatalogueModule, {
        providers: [{ provide: EVENT_BUS, useValue: new RedisEventBus({ channel }) }],
      });
    [a, b] = await Promise.all([instance(), instance()]);
    // Each bus subscribes on its own: wait until a change made on A is heard on B.
    await streamsOpen([b], () => a.app.catalogue.enable("echo"));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("a tool disabled on one instance is gone from every instance's lists and calls", async () => {
    const heardOnB = listChanged(b, "tools");
    const heardOnA = listChanged(a, "tools");
    await a.app.catalogue.disable("echo");
    await Promise.all([heardOnA, heardOnB]);
    expect(b.app.catalogue.isEnabled("echo")).toBe(false);
    expect(await toolNames(b)).toEqual([]);
    await expect(b.callTool({ name: "echo", arguments: { text: "hi" } })).rejects.toThrow(
      'Unknown tool "echo"',
    );

    const backOnA = listChanged(a, "tools");
    await b.app.catalogue.enable("echo");
    await backOnA;
    expect(await toolNames(a)).toEqual(["echo"]);
  });

  it("a prompt disabled on one instance sends prompts/list_changed on the other", async () => {
    const heard = listChanged(b, "prompts");
    await a.app.catalogue.disable("greet");
    await heard;
    expect((await b.listPrompts()).prompts).toEqual([]);
    await a.app.catalogue.enable("greet");
  });
});
