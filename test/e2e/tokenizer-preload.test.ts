import {
  Budget,
  Ephemeral,
  LOGGER,
  type Logger,
  McpModule,
  McpService,
  TOKEN_COUNTER,
  type TokenCounter,
  Tool,
} from "frugal-mcp";
import { createTestClient } from "frugal-mcp/testing";
import { describe, expect, it } from "vitest";

@McpService()
class PlainService {
  @Tool({ description: "Ping" })
  ping() {
    return "pong";
  }
}

@McpService()
class BudgetedService {
  @Tool({ description: "Rows" })
  @Budget(500)
  rows() {
    return Array.from({ length: 5 }, (_, id) => ({ id }));
  }
}

@McpService()
class SpillingService {
  @Tool({ description: "A report" })
  @Ephemeral()
  report() {
    return "short";
  }
}

@McpModule({ services: [PlainService] })
class PlainModule {}
@McpModule({ services: [BudgetedService] })
class BudgetedModule {}
@McpModule({ services: [SpillingService] })
class SpillingModule {}

/** A counter whose `load()` (like the BPE tables') finishes only when `finish()` is called. */
function slowCounter(fails = false) {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let loading: Promise<void> | undefined;
  const state = { loads: 0, counts: 0, finish };
  const counter: TokenCounter = {
    load: () => {
      loading ??= (async () => {
        state.loads++;
        await gate;
        if (fails) throw new Error("no tables");
      })();
      return loading;
    },
    count: async (text) => {
      await counter.load?.();
      state.counts++;
      return { tokens: Math.ceil(text.length / 4), exact: true };
    },
  };
  return { counter, state };
}

const withinOneSecond = <T>(promise: Promise<T>, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} waited`)), 1000)),
  ]);

describe("the tokenizer loads in the background, only for apps that count tokens", () => {
  it("an app without budgets, ephemeral results or resource tools never loads it", async () => {
    const { counter, state } = slowCounter();
    const t = await createTestClient(PlainModule, {
      providers: [{ provide: TOKEN_COUNTER, useValue: counter }],
    });
    expect(await t.client.callTool({ name: "ping", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "pong" }],
    });
    expect(state.loads).toBe(0);
    await t.close();
  });

  it("McpFactory.create starts loading it without waiting; the first budgeted call waits for it", async () => {
    const { counter, state } = slowCounter();
    const t = await withinOneSecond(
      createTestClient(BudgetedModule, { providers: [{ provide: TOKEN_COUNTER, useValue: counter }] }),
      "create",
    );
    expect(state.loads).toBe(1);
    let answered = false;
    const first = t.client.callTool({ name: "rows", arguments: {} }).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false); // still loading
    state.finish();
    // A table of the five rows: 4 "tokens" by this counter, where their JSON is 12.
    expect((await first).content).toEqual([{ type: "text", text: "id\n0\n1\n2\n3\n4" }]);
    await t.client.callTool({ name: "rows", arguments: {} });
    expect(state.loads).toBe(1);
    expect(state.counts).toBeGreaterThanOrEqual(2);
    await t.close();
  });

  it("an app with resource tools (an @Ephemeral tool) starts loading it too", async () => {
    const { counter, state } = slowCounter();
    const t = await withinOneSecond(
      createTestClient(SpillingModule, { providers: [{ provide: TOKEN_COUNTER, useValue: counter }] }),
      "create",
    );
    expect(state.loads).toBe(1);
    state.finish();
    await t.close();
  });

  it("a load that fails is logged, not thrown at start-up", async () => {
    const { counter, state } = slowCounter(true);
    const warnings: string[] = [];
    const logger: Logger = {
      debug() {},
      info() {},
      warn: (message) => void warnings.push(message),
      error() {},
    };
    const t = await createTestClient(BudgetedModule, {
      providers: [
        { provide: TOKEN_COUNTER, useValue: counter },
        { provide: LOGGER, useValue: logger },
      ],
    });
    state.finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(warnings).toContain("loading the tokenizer failed; calls that count tokens will try again");
    await t.close();
  });
});
