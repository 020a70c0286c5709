import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pipelineOrder } from "../../../src/builder/capability-stages.js";
import { CACHE_STAGE, type CacheStageDeps } from "../../../src/cache/cache.stage.js";
import { CacheTrust } from "../../../src/cache/cache-trust.js";
import { Cached } from "../../../src/cache/cached.capability.js";
import { LruCache } from "../../../src/cache/lru-cache.js";
import { SingleFlight } from "../../../src/cache/single-flight.js";
import { ManualClock } from "../../../src/clock/clock.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import { AppMetrics } from "../../../src/metrics/app-metrics.js";
import { CursorCodec } from "../../../src/pagination/cursor-codec.js";
import { createKeyring } from "../../../src/pagination/cursor-keys.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import {
  PAGINATION_STAGES,
  type PaginationStageDeps,
} from "../../../src/pagination/pagination-stage-deps.js";
import { TailPolls } from "../../../src/pagination/tail-polls.js";
import type { Interceptor } from "../../../src/pipeline/interceptor.js";
import { PIPELINE_ORDER } from "../../../src/pipeline/order.js";
import {
  BUILT_IN_CAPABILITIES,
  pipelineStages,
  type StageDeps,
} from "../../../src/runtime/pipeline-stages.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";
import { buildServices, invocationOf, recordingLogger } from "../../support/unit-build.js";

const clock = new ManualClock(Date.UTC(2026, 0, 1));

function deps(): StageDeps {
  return {
    logger: recordingLogger(),
    metrics: new AppMetrics(),
    inputLimits: { maxBytes: 10_000, maxElements: 1_000, maxDepth: 8 },
    appInterceptors: [],
    interceptorOf: (type) => type as Interceptor,
    bus: new InMemoryEventBus(),
    counter: new BpeTokenCounter(),
  };
}

const pagination: PaginationStageDeps = {
  cursors: new CursorCodec({
    keyring: createKeyring("0123456789abcdef-secret"),
    clock,
    ttlMs: 60_000,
    encrypt: false,
    maxLength: 1024,
  }),
  clock,
  tails: new TailPolls(),
  aggregate: undefined,
  counter: undefined,
};

@McpService()
class Counter {
  runs = 0;
  @Tool({ input: { by: z.number().int() } })
  @Cached({ ttl: 10_000 })
  add({ by }: { by: number }) {
    this.runs += by;
    return { runs: this.runs };
  }

  @Tool()
  @Paginated("n", { limit: 2 })
  numbers() {
    return [1, 2, 3].map((n) => ({ n }));
  }
}

describe("BUILT_IN_CAPABILITIES", () => {
  it("registers the built-in capabilities, whose places give the documented order", () => {
    expect(BUILT_IN_CAPABILITIES.map((capability) => capability.decorator)).toEqual([
      "@Budget",
      "@Cached",
      "@Ephemeral",
      "@Paginated",
    ]);
    expect(pipelineOrder(BUILT_IN_CAPABILITIES)).toEqual([
      "validate",
      "interceptors",
      "decodeCursor",
      "cache",
      "shape",
      "spill",
      "budget",
      "paginate",
    ]);
  });
});

describe("pipelineStages", () => {
  it("gives one stage factory per kernel place of PIPELINE_ORDER, in that order", () => {
    expect(pipelineStages(deps()).map((factory) => factory.name)).toEqual([...PIPELINE_ORDER]);
  });

  it("composes into a working pipeline: arguments validated, results shaped and cached", async () => {
    const stageDeps = deps();
    const cacheDeps: CacheStageDeps = {
      cache: new LruCache(),
      clock,
      flights: new SingleFlight(),
      metrics: stageDeps.metrics,
      logger: stageDeps.logger,
      trust: new CacheTrust(),
    };
    const registry = buildServices([Counter], {
      stages: pipelineStages(stageDeps),
      services: {
        resolve: <T>(token: unknown) => (token === CACHE_STAGE ? cacheDeps : undefined) as T,
        logger: stageDeps.logger,
      },
    });
    const add = registry.tools.get("add");
    if (!add) throw new Error("not built");
    const call = (args: Record<string, unknown>) => add.execute(invocationOf(add.definition, args));
    expect(await call({ by: "two" })).toMatchObject({ isError: true });
    expect(await call({ by: 2 })).toEqual({
      content: [{ type: "text", text: '{"runs":2}' }],
      structuredContent: { runs: 2 },
    });
    // Served from the cache: the handler does not run again for the same input and owner.
    expect(await call({ by: 2 })).toMatchObject({ structuredContent: { runs: 2 } });
  });

  it("pages a @Paginated tool with the stages its capability brings, given the app's pagination parts", async () => {
    const stageDeps = deps();
    const registry = buildServices([Counter], {
      stages: pipelineStages(stageDeps),
      services: {
        resolve: <T>(token: unknown) => (token === PAGINATION_STAGES ? pagination : undefined) as T,
        logger: stageDeps.logger,
      },
    });
    const numbers = registry.tools.get("numbers");
    if (!numbers) throw new Error("not built");
    const call = (args: Record<string, unknown>) => numbers.execute(invocationOf(numbers.definition, args));
    const first = (await call({})) as { structuredContent: { items: unknown[]; nextCursor: string } };
    expect(first.structuredContent).toMatchObject({ items: [{ n: 1 }, { n: 2 }], hasMore: true, count: 2 });
    const second = await call({ cursor: first.structuredContent.nextCursor });
    expect(second).toMatchObject({
      structuredContent: { items: [{ n: 3 }], nextCursor: null, hasMore: false },
    });
  });
});
