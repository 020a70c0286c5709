import { describe, expect, it } from "vitest";
import { BUDGET_STAGE, type BudgetStageDeps } from "../../../src/budget/budget.stage.js";
import { createAppContainer } from "../../../src/container/app-container.js";
import type { ModuleGraph } from "../../../src/container/module-graph.js";
import type { EventBus } from "../../../src/events/event-bus.js";
import {
  PAGINATION_STAGES,
  type PaginationStageDeps,
} from "../../../src/pagination/pagination-stage-deps.js";
import { appPartsOf, capabilityParts } from "../../../src/runtime/app-parts.js";
import { frameworkProviders } from "../../../src/runtime/framework-providers.js";
import { EVENT_BUS } from "../../../src/tokens.js";

const options = { name: "t", version: "1" };
const noServices: ModuleGraph = { services: [], providers: [], listedBy: new Map() };
const failingBus: EventBus = {
  emit: async () => {
    throw new Error("bus down");
  },
  subscribe: () => () => {},
};

function containerWith(bus?: EventBus) {
  const providers = frameworkProviders();
  return createAppContainer(bus ? [...providers, { provide: EVENT_BUS, useValue: bus }] : providers, []);
}

describe("appPartsOf", () => {
  it("names the resource tools, renamed by the options, and serves them only when asked", () => {
    const plain = appPartsOf(containerWith(), noServices, options, undefined, () => {});
    expect(plain.resourceTools).toEqual({
      read: "read_resource",
      search: "search_resource",
      query: "query_resource",
    });
    expect(plain.withResourceTools).toBe(false);
    const asked = appPartsOf(
      containerWith(),
      noServices,
      { ...options, ephemeral: { tools: true, readToolName: "read_slice" } },
      undefined,
      () => {},
    );
    expect(asked.resourceTools.read).toBe("read_slice");
    expect(asked.withResourceTools).toBe(true);
  });

  it("reports each event the container's bus fails to deliver, and still throws it to the emitter", async () => {
    const undelivered: string[] = [];
    const parts = appPartsOf(containerWith(failingBus), noServices, options, undefined, (name) =>
      undelivered.push(name),
    );
    await expect(parts.events.emit("orders.changed")).rejects.toThrow("bus down");
    expect(undelivered).toEqual(["orders.changed"]);
  });
});

describe("capabilityParts", () => {
  it("gives the stages the app's own parts, and the budget the read tool only when it is served", () => {
    const parts = appPartsOf(containerWith(), noServices, options, undefined, () => {});
    const deps = capabilityParts(parts, options);
    expect(deps.get(EVENT_BUS)).toBe(parts.events);
    expect((deps.get(PAGINATION_STAGES) as PaginationStageDeps).cursors).toBe(parts.cursors);
    expect((deps.get(BUDGET_STAGE) as BudgetStageDeps).readTool).toBeUndefined();
    const served = appPartsOf(
      containerWith(),
      noServices,
      { ...options, ephemeral: { tools: true } },
      undefined,
      () => {},
    );
    expect((capabilityParts(served, options).get(BUDGET_STAGE) as BudgetStageDeps).readTool).toBe(
      "read_resource",
    );
  });
});
