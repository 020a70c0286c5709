// `frugal-mcp/testing/vitest`: matchers that hold what results and tool lists cost a model.
// Import it once (e.g. from a vitest setup file); `frugal-mcp/testing` itself needs no test runner.
// Kept in the published declarations (the value import below is not): without it, a user's
// TypeScript 7 did not merge the augmentation at the end into vitest's `Assertion`.
import "vitest";
import { expect } from "vitest";
import { catalogueText, type ListedTool } from "../metrics/catalogue-text.js";
import { catalogueOf, type ToolLister } from "./catalogue-of.js";
import { tokensOf } from "./tokens-of.js";

/** How many of the costliest tools a failed catalogue check names. */
const COSTLIEST_SHOWN = 5;

const format = (n: number) => n.toLocaleString("en-US");

function checkTokens(matcher: string, tokens: unknown): number {
  if (typeof tokens !== "number" || !Number.isFinite(tokens) || tokens < 0) {
    throw new TypeError(`${matcher} takes a number of tokens (0 or more), not ${String(tokens)}`);
  }
  return tokens;
}

/** The costliest tools of a list, as `name 123`, to say where a catalogue's tokens go. */
function costliest(tools: readonly ListedTool[]): string {
  const costs = tools.map((tool) => ({ name: tool.name, tokens: tokensOf(catalogueText([tool])) }));
  costs.sort((a, b) => b.tokens - a.tokens);
  return costs
    .slice(0, COSTLIEST_SHOWN)
    .map((cost) => `${cost.name} ${format(cost.tokens)}`)
    .join(", ");
}

expect.extend({
  // Synchronous, so it works with or without `await` (a tool result is counted at once).
  toCostAtMost(received: unknown, tokens: number) {
    const ceiling = checkTokens("toCostAtMost", tokens);
    const cost = tokensOf(received);
    const pass = cost <= ceiling;
    return {
      pass,
      actual: cost,
      expected: ceiling,
      message: () =>
        pass
          ? `expected the result to cost more than ${format(ceiling)} tokens (o200k), but it costs ${format(cost)}`
          : `expected the result to cost at most ${format(ceiling)} tokens (o200k), but it costs ${format(cost)} (${format(cost - ceiling)} over)`,
    };
  },

  async catalogueToCostAtMost(received: unknown, tokens: number) {
    const ceiling = checkTokens("catalogueToCostAtMost", tokens);
    const tools = await catalogueOf(received as ToolLister);
    const cost = tokensOf(tools);
    const pass = cost <= ceiling;
    const costliestTools = pass ? "" : ` The costliest: ${costliest(tools)}.`;
    return {
      pass,
      actual: cost,
      expected: ceiling,
      message: () =>
        pass
          ? `expected the tool list to cost more than ${format(ceiling)} tokens (o200k), but its ${tools.length} tools cost ${format(cost)}`
          : `expected the tool list to cost at most ${format(ceiling)} tokens (o200k), but its ${tools.length} tools cost ${format(cost)} (${format(cost - ceiling)} over).${costliestTools}`,
    };
  },
});

declare module "vitest" {
  // Same type parameter as vitest's own declaration, which this merges with.
  interface Assertion<T = any> {
    /**
     * Passes when what a model reads of the result (see `tokensOf`) is at most `tokens` o200k
     * tokens; the failure says what it costs. Synchronous (an `await` does no harm).
     *
     * @example
     * ```ts
     * expect(await client.callTool({ name: "list_articles", arguments: {} })).toCostAtMost(800);
     * ```
     */
    toCostAtMost(tokens: number): void;
    /**
     * Passes when the whole `tools/list` of a connected client (every page) costs a model at
     * most `tokens` o200k tokens; the failure says what it costs and which tools cost most. Await it.
     *
     * @example
     * ```ts
     * await expect(client).catalogueToCostAtMost(2_000);
     * ```
     */
    catalogueToCostAtMost(tokens: number): Promise<void>;
  }
}
