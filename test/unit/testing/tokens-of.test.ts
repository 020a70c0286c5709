import { describe, expect, it } from "vitest";
import { tokensOf } from "../../../src/testing/tokens-of.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";

const o200k = new BpeTokenCounter();
const count = async (text: string) => (await o200k.count(text, Number.MAX_SAFE_INTEGER)).tokens;

describe("tokensOf", () => {
  it("counts a string exactly, however long", async () => {
    const text = "lorem ipsum dolor sit amet ".repeat(5_000);
    expect(await tokensOf(text)).toBe(await count(text));
  });

  it("counts a tool result's text and links, and structuredContent only when no text carries it", async () => {
    const link = { type: "resource_link", uri: "ephemeral://x/1", name: "rows" };
    expect(
      await tokensOf({ content: [{ type: "text", text: "hello world" }, link], structuredContent: { a: 1 } }),
    ).toBe((await count("hello world")) + (await count(JSON.stringify({ uri: link.uri, name: link.name }))));
    expect(await tokensOf({ content: [], structuredContent: { a: 1 } })).toBe(await count('{"a":1}'));
  });

  it("counts an image as a flat 1,000 tokens, and a resource read's and a prompt's texts", async () => {
    expect(await tokensOf({ content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] })).toBe(1_000);
    expect(await tokensOf({ contents: [{ uri: "a://b", text: "some text" }] })).toBe(
      await count("some text"),
    );
    expect(
      await tokensOf({ messages: [{ role: "user", content: { type: "text", text: "Summarise this" } }] }),
    ).toBe(await count("Summarise this"));
  });

  it("counts a list of tools as what a model reads of them", async () => {
    const tool = {
      name: "t",
      description: "d",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
    };
    const expected = await count('[{"name":"t","description":"d","inputSchema":{"type":"object"}}]');
    expect(await tokensOf({ tools: [tool] })).toBe(expected);
    expect(await tokensOf([tool])).toBe(expected);
  });

  it("names what it takes when given anything else", async () => {
    expect(() => tokensOf(null)).toThrow(/, a tools\/list answer \(\{ tools \}\) or a string, not null$/);
    expect(() => tokensOf({})).toThrow(/not an empty object$/);
  });
});
