// CompactBpe counts exactly what gpt-tokenizer counts (its vocabulary, its pre-tokenizer,
// tiktoken's merge order), on fixed texts of every kind and on random ones (fixed seed).
import fc from "fast-check";
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { CompactBpe } from "../../../src/tokenizer/compact-bpe.js";

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
const ROWS = Array.from({ length: 120 }, (_, i) => ({
  id: i,
  title: `Report row ${i}`,
  total: i * 37.5,
  tags: ["alpha", "beta"],
  at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
}));

const TEXTS = [
  "",
  "a",
  " ",
  "Hello world",
  "Hello world, this is a test of the tokenizer. It's what we'll see; they're done.",
  "Ceci n'est pas une pipe. Das ist ein Test. Это тест. これはテストです。هذا اختبار. 이것은 테스트입니다. 東京タワー",
  "emoji 🤖🚀👩‍👩‍👧‍👦 flags 🇫🇷🇯🇵 and symbols ∑∫√≈ € £ ¥",
  JSON.stringify(ROWS),
  "function foo(x) {\n  return x.map((y) => y * 2).filter(Boolean); // comment ?!?! ::: ===\n}\n",
  "    indented\n\n\n\t\ttabs   and   spaces      \r\n\r\n  trailing   ",
  "<|endoftext|> special tokens are plain text <|im_start|>user<|im_end|>",
  "x".repeat(300),
  "1234567890 3.14159 -42 1e-7 0xFF 100,000,000",
  "lone surrogate \uD800 and \uDFFF, NUL \u0000, replacement \uFFFD",
  "https://example.com/path?query=1&b=two#frag SELECT * FROM t WHERE a = 'b';",
  Buffer.from("binary-ish payload \u0001\u0002\u0003").toString("base64").repeat(20),
];

for (const [name, reference] of [
  ["o200k_base", o200k],
  ["cl100k_base", cl100k],
] as const) {
  describe(`CompactBpe ${name}`, () => {
    let bpe: CompactBpe;
    beforeAll(async () => {
      bpe = await CompactBpe.load(name);
    });

    it("holds the whole vocabulary", () => {
      expect(bpe.size).toBe(name === "o200k_base" ? 199_998 : 100_256);
    });

    it("counts fixed texts of every kind exactly as gpt-tokenizer does", () => {
      for (const text of TEXTS)
        expect([text, bpe.count(text)]).toEqual([text, reference.countTokens(text, PLAIN_TEXT)]);
    });

    it("counts random text exactly as gpt-tokenizer does (seed 23)", () => {
      const pieces = fc.constantFrom(
        "a",
        "Z",
        "é",
        "ß",
        "東",
        "😀",
        " ",
        "  ",
        "\n",
        "\t",
        "\r\n",
        "'s",
        "'LL",
        ".",
        ",",
        "!?",
        "{",
        '"',
        "/",
        "0",
        "42",
        "\u0301",
        "ǅ",
      );
      const texts = fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: "binary", maxLength: 120 }),
        fc.string({ unit: "grapheme", maxLength: 120 }),
        fc.array(pieces, { maxLength: 120 }).map((parts) => parts.join("")),
      );
      fc.assert(
        fc.property(texts, (text) => bpe.count(text) === reference.countTokens(text, PLAIN_TEXT)),
        { seed: 23, numRuns: 600 },
      );
    });

    it("counts piece by piece to the same total", () => {
      const text = JSON.stringify(ROWS.slice(0, 20));
      let tokens = 0;
      let characters = 0;
      for (const [piece] of bpe.pieces(text)) {
        tokens += bpe.countPiece(piece);
        characters += piece.length;
      }
      expect(tokens).toBe(bpe.count(text));
      expect(characters).toBe(text.length);
    });
  });
}
