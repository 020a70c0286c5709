import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { BpeTokenCounter, type TokenCounter } from "frugal-mcp";

/** Tokens and bytes of some text a model reads. */
export interface Cost {
  tokens: number;
  bytes: number;
}

export const ZERO: Cost = Object.freeze({ tokens: 0, bytes: 0 });

/** The framework's own default tokenizer (o200k BPE): the demo counts as the budgets do. */
let counter: TokenCounter = new BpeTokenCounter();

/** Counts with another `TokenCounter` (tests may pass a cheaper one). */
export function useTokenCounter(other: TokenCounter): void {
  counter = other;
}

export function add(a: Cost, b: Cost): Cost {
  return { tokens: a.tokens + b.tokens, bytes: a.bytes + b.bytes };
}

/** The cost of a text read whole. */
export async function costOfText(text: string): Promise<Cost> {
  const { tokens } = await counter.count(text, Number.POSITIVE_INFINITY);
  return { tokens, bytes: Buffer.byteLength(text) };
}

/** The cost of a value a tool without frugal-mcp would return: its JSON text. */
export function costOfJson(value: unknown): Promise<Cost> {
  return costOfText(JSON.stringify(value));
}

/**
 * What a model reads of a tool result, counted as the budgets count it: its text blocks
 * and its resource links. `structuredContent` repeats the text for programs and is not
 * counted twice.
 */
export async function costOfToolResult(result: CallToolResult): Promise<Cost> {
  let cost = ZERO;
  for (const block of result.content ?? []) {
    if (block.type === "text") cost = add(cost, await costOfText(block.text));
    else if (block.type === "resource_link") {
      const { type: _type, ...link } = block;
      cost = add(cost, await costOfJson(link));
    }
  }
  return cost;
}

/** What a model reads of a resource: the text of its contents. */
export async function costOfResource(result: ReadResourceResult): Promise<Cost> {
  let cost = ZERO;
  for (const content of result.contents) {
    if ("text" in content && typeof content.text === "string")
      cost = add(cost, await costOfText(content.text));
  }
  return cost;
}
