import { describe, expect, it } from "vitest";
import { formatDuration, spillSummary } from "../../../src/ephemeral/spill-summary.js";
import type { StoredResourceMeta } from "../../../src/storage/storage.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";

const counter = new BpeTokenCounter();
const HOUR = 3_600_000;

function meta(overrides: Partial<StoredResourceMeta>): StoredResourceMeta {
  return {
    uri: "ephemeral://get_issue/AbCdEfGhIjKlMnOpQrStUv",
    name: "get_issue",
    mimeType: "application/json",
    size: 370_000,
    version: 1,
    createdAt: Date.UTC(2026, 5, 1),
    expiresAt: Date.UTC(2026, 5, 1) + HOUR,
    kind: "text",
    total: 1,
    ...overrides,
  } as StoredResourceMeta;
}

const input = (m: StoredResourceMeta, value: unknown = {}, preview = 200) => ({
  meta: m,
  value,
  budget: 2000,
  preview,
  readTool: "read_resource",
  searchTool: "search_resource",
});

const textOf = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.find((block) => block.type === "text")?.text ?? "";

describe("spillSummary", () => {
  it("says how long it is kept, its size and shape and how to read it, without the URI the link carries", async () => {
    const m = meta({});
    const result = await spillSummary(input(m, { body: "x".repeat(10) }), counter);
    expect(result.content[0]).toEqual({
      type: "resource_link",
      uri: m.uri,
      name: "get_issue",
      mimeType: "application/json",
    });
    expect(textOf(result)).toBe(
      "Stored for 1 h: 361.3 KiB, one JSON value. Find text with search_resource({ uri, pattern }); read a long string with read_resource({ uri, path, offset }).",
    );
    expect(textOf(result)).not.toContain(m.uri);
    // Programs get the instant of expiry.
    expect(result.structuredContent).toEqual({
      spilled: { uri: m.uri, size: 370_000, expiresAt: new Date(m.expiresAt).toISOString() },
    });
  });

  it("counts the lines of a text and the items of an array, and previews whole entries", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    const text = await spillSummary(
      input(meta({ kind: "text", total: 50, mimeType: "text/plain" }), lines),
      counter,
    );
    expect(textOf(text)).toMatch(
      /^Stored for 1 h: .*, 50 lines of text\. Read it in slices with read_resource/,
    );
    expect(textOf(text)).toContain("Preview (first 20):\nline 0\nline 1\n");
    const none = await spillSummary(input(meta({ kind: "text", total: 50 }), lines, 0), counter);
    expect(textOf(none)).not.toContain("Preview");
  });

  it("shows at most 100 characters of a first entry too long for the preview", async () => {
    const items = [{ id: 1, body: "word ".repeat(400) }];
    const result = await spillSummary(input(meta({ kind: "json-array", total: 1 }), items), counter);
    const glimpse = textOf(result).split("Preview (start of the first):\n")[1] ?? "";
    expect(glimpse).toBe(`${JSON.stringify(items[0]).slice(0, 100)}… (cut in this preview only)`);
  });
});

describe("formatDuration", () => {
  it("rounds down to the largest unit that says it without promising more", () => {
    expect(formatDuration(45_000)).toBe("45 s");
    expect(formatDuration(90_000)).toBe("90 s");
    expect(formatDuration(60_000)).toBe("1 min");
    expect(formatDuration(30 * 60_000)).toBe("30 min");
    expect(formatDuration(HOUR)).toBe("1 h");
    expect(formatDuration(90 * 60_000)).toBe("90 min");
    expect(formatDuration(2.5 * HOUR)).toBe("2 h");
    expect(formatDuration(24 * HOUR)).toBe("1 d");
    expect(formatDuration(36 * HOUR)).toBe("36 h");
    expect(formatDuration(7 * 24 * HOUR)).toBe("7 d");
    expect(formatDuration(-5)).toBe("0 s");
  });
});
