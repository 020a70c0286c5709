import { readableParts } from "../budget/count-result.js";
import { fieldOf, isObject } from "../common/guards.js";
import { catalogueText } from "../metrics/catalogue-text.js";
import { BpeTokenCounter } from "../tokenizer/bpe-token-counter.js";

// One o200k counter for every test of a process: its tables load once, on first use.
let counter: BpeTokenCounter | undefined;

/**
 * o200k tokens of what a model reads of a result or of a `tools/list` answer, counted exactly
 * by the same tokenizer as budgets:
 * - a `tools/list` answer (`{ tools }`), or an array of tools: each tool's name, description
 *   and input schema as JSON (hosts give a model these; `title`, `annotations`,
 *   `outputSchema` and `_meta` stay with the host), app-only tools (`visibility: ["app"]`)
 *   left out;
 * - a tool result: its text blocks and resource links, and `structuredContent` only when no
 *   text block carries it; images and audio count 1,000 tokens each;
 * - a resource read (`{ contents }`) or a prompt (`{ messages }`): their texts (a binary
 *   content counts as its base64 text);
 * - a string: its tokens.
 *
 * Synchronous, so `expect(tokensOf(result))` needs no `await` (an `await` does no harm): the
 * tokenizer's tables are read, blocking, on the first call of the process.
 *
 * @example
 * ```ts
 * const result = await client.callTool({ name: "list_articles", arguments: {} });
 * expect(tokensOf(result)).toBeLessThan(800);
 * expect(tokensOf(await client.listTools())).toBeLessThan(2_000);
 * ```
 */
export function tokensOf(result: unknown): number {
  counter ??= new BpeTokenCounter();
  const bpe = counter;
  const tokens = (text: string) => bpe.countSync(text, Number.MAX_SAFE_INTEGER).tokens;
  if (typeof result === "string") return tokens(result);
  const tools = Array.isArray(result) ? result : fieldOf(result, "tools");
  if (Array.isArray(tools)) {
    const bad = tools.findIndex((tool) => typeof fieldOf(tool, "name") !== "string");
    if (bad !== -1)
      throw new TypeError(`tokensOf: tool ${bad} of the list has no name; pass a tools/list answer`);
    return tokens(catalogueText(tools));
  }
  if (isResult(result)) {
    let total = 0;
    for (const part of readableParts(result)) total += typeof part === "number" ? part : tokens(part);
    return total;
  }
  throw new TypeError(
    `tokensOf takes a tool result ({ content }), a resource read ({ contents }), a prompt ({ messages }), a tools/list answer ({ tools }) or a string, not ${describe(result)}`,
  );
}

function isResult(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { content, contents, messages } = value;
  return Array.isArray(content) || Array.isArray(contents) || Array.isArray(messages);
}

function describe(value: unknown): string {
  if (value === null || typeof value !== "object") return String(value);
  const keys = Object.keys(value).slice(0, 5);
  return keys.length === 0 ? "an empty object" : `an object with ${keys.map((k) => `"${k}"`).join(", ")}`;
}
