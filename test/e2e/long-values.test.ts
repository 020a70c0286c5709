/**
 * Inside long values: `search_resource` answers windows of text around each match (item
 * index, JSON Pointer, offset), and `read_resource` reads any long string field, line or
 * item text in windows, so a field far over the token budget is read whole, window by window.
 */
import { Ephemeral, MAX_TOKENS_META, McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

/** About 400 KiB of varied text (accents and emoji included: windows count UTF-16 characters), FATAL once. */
function longBody(): string {
  const words = ["alpha", "béta", "gamma", "delta", "🚀launch", "epsilon", "zêta", "log"];
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 200_000; i++)
    lines.push(`${i} ${words[i % words.length]} ${words[(i * 7) % words.length]} trace line ${i * 31}`);
  lines.splice(1500, 0, "2026-11-02 FATAL worker 7 died: out of memory in shard 12");
  const text = lines.join("\n");
  return `${text}\n${text.replaceAll("FATAL", "fatal")}`;
}
const BODY = longBody();
const FATAL_AT = BODY.indexOf("FATAL");
const ISSUES = [
  { id: 1, title: "Login fails", body: "short body", comments: [] as Array<{ text: string }> },
  {
    id: 2,
    title: "Crash on start",
    body: BODY,
    comments: [{ text: "seen too" }, { text: "me too" }, { text: "the stack says NullPointer at boot" }],
  },
  { id: 3, title: "Docs typo", body: "no crash here", comments: [{ text: "NullPointer? no" }] },
];
const REPORT = {
  summary: "weekly report",
  sections: [
    { title: "ok", text: "all good" },
    { title: "incident", text: `${"x ".repeat(100)}disk FULL on db-3${" y".repeat(100)}` },
  ],
  "a/b": { "c~d": "escaped keys hold FULL too" },
};
const LONG_LINE = `start ${"word ".repeat(60_000)}NEEDLE end`;
const LOG = ["first line", "second line with NEEDLE", LONG_LINE, "last line"].join("\n");

@McpService()
class StoreService {
  @Tool({ input: { what: z.enum(["issues", "report", "log"]) } })
  async store({ what }: { what: "issues" | "report" | "log" }, ctx: ToolContext) {
    const value = what === "issues" ? ISSUES : what === "report" ? REPORT : LOG;
    const info = await ctx.resources.create(value, what === "log" ? { mimeType: "text/plain" } : {});
    return { uri: info.uri };
  }

  @Tool()
  @Ephemeral({ mimeType: "application/json" })
  crashReport() {
    return ISSUES[1];
  }
}

@McpModule({ services: [StoreService] })
class StoreModule {}

type Match = { index?: number; path?: string; offset?: number; text?: string; item?: unknown };
type Found = { matches: Match[]; nextOffset: number | null; hasMore: boolean; skipped?: unknown };
type Window = { text: string; offset: number; nextOffset: number | null; totalChars: number };

describe("windows inside long values", () => {
  let t: TestClient;
  const uris: Record<string, string> = {};
  const call = async (name: string, args: Record<string, unknown>, maxTokens?: number) =>
    t.client.callTool({
      name,
      arguments: args,
      ...(maxTokens ? { _meta: { [MAX_TOKENS_META]: maxTokens } } : {}),
    });
  const ok = async <T>(name: string, args: Record<string, unknown>, maxTokens?: number): Promise<T> => {
    const result = await call(name, args, maxTokens);
    expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
    return result.structuredContent as T;
  };
  const refused = async (name: string, args: Record<string, unknown>, message: RegExp) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(message);
  };
  const search = (what: string, args: Record<string, unknown>, maxTokens?: number) =>
    ok<Found>("search_resource", { uri: uris[what], ...args }, maxTokens);
  /** Reads a whole field, line or item text window by window, checking each window's place. */
  const readAll = async (args: Record<string, unknown>) => {
    let text = "";
    let offset: number | null = 0;
    let calls = 0;
    let total = 0;
    while (offset !== null) {
      const window: Window = await ok<Window>("read_resource", { ...args, offset });
      expect(window.offset).toBe(offset);
      text += window.text;
      total = window.totalChars;
      offset = window.nextOffset;
      calls++;
    }
    return { text, calls, total };
  };

  beforeAll(async () => {
    t = await createTestClient(StoreModule, { ephemeral: { tools: true } });
    for (const what of ["issues", "report", "log"])
      uris[what] = (await ok<{ uri: string }>("store", { what })).uri;
  });
  afterAll(() => t.close());

  it("answers a match in a JSON array as its item, the field's JSON Pointer, the offset and a window", async () => {
    const found = await search("issues", { pattern: "FATAL" });
    expect(found.matches).toHaveLength(1);
    const [match] = found.matches as [Match];
    expect(match).toMatchObject({ index: 1, path: "/body", offset: FATAL_AT });
    expect(match.text).toBe(BODY.slice(FATAL_AT - 80, FATAL_AT + 5 + 80));
    expect(Object.keys(match).sort()).toEqual(["index", "offset", "path", "text"]);
  });

  it("names nested fields by JSON Pointer, every match in order, and holds context to what was asked", async () => {
    const found = await search("issues", { pattern: "NullPointer", context: 4 });
    expect(found.matches).toEqual([
      { index: 1, path: "/comments/2/text", offset: 15, text: "ays NullPointer at " },
      { index: 2, path: "/comments/0/text", offset: 0, text: "NullPointer? no" },
    ]);
  });

  it("searches a JSON value that is not an array as one item: no index, paths from its root", async () => {
    const found = await search("report", { pattern: "FULL", context: 5 });
    expect(found.matches).toEqual([
      { path: "/sections/1/text", offset: 205, text: "disk FULL on d" },
      { path: "/a~1b/c~0d", offset: 18, text: "hold FULL too" },
    ]);
    const window = await ok<Window>("read_resource", { uri: uris.report, path: "/a~1b/c~0d", offset: 5 });
    expect(window).toMatchObject({
      text: "ed keys hold FULL too",
      offset: 5,
      nextOffset: null,
      totalChars: 26,
    });
  });

  it("on text, answers the line number and a window within that line; whole gives the line", async () => {
    const found = await search("log", { pattern: "NEEDLE", context: 10 });
    expect(found.matches).toEqual([
      { index: 1, offset: 17, text: "line with NEEDLE" },
      { index: 2, offset: LONG_LINE.indexOf("NEEDLE"), text: "word word NEEDLE end" },
    ]);
    const whole = await search("log", { pattern: "second", whole: true });
    expect(whole.matches).toEqual([{ index: 1, text: "second line with NEEDLE" }]);
  });

  it("answers whole items with whole: true, projected by fields", async () => {
    const whole = await search("issues", { pattern: "typo", whole: true });
    expect(whole.matches).toEqual([{ index: 2, item: ISSUES[2] }]);
    const projected = await search("issues", { pattern: "NullPointer", fields: ["id", "title"] });
    expect(projected.matches).toEqual([
      { index: 1, item: { id: 2, title: "Crash on start" } },
      { index: 2, item: { id: 3, title: "Docs typo" } },
    ]);
    const counted = await search("issues", { pattern: "crash", ignoreCase: true, count: true });
    expect(counted).toEqual({ count: 2 });
  });

  it("reads a 400 KiB string field whole in windows, each held to the budget", async () => {
    expect(BODY.length).toBeGreaterThan(400_000);
    const { text, calls, total } = await readAll({ uri: uris.issues, index: 1, path: "/body" });
    expect(total).toBe(BODY.length);
    expect(text === BODY).toBe(true);
    expect(calls).toBeGreaterThan(10);
  });

  it("says how to read in windows a line or item that a slice cannot hold", async () => {
    const item = await ok<{ items: unknown[]; skipped: unknown; hint: string }>("read_resource", {
      uri: uris.issues,
      offset: 1,
      limit: 1,
    });
    expect(item).toMatchObject({ items: [], skipped: { position: 1 }, nextOffset: 2 });
    expect(item.hint).toContain('read_resource({ uri, index: 1, path: "/field", offset })');
    const line = await ok<{ lines: unknown[]; hint: string }>("read_resource", {
      uri: uris.log,
      offset: 2,
      limit: 1,
    });
    expect(line.lines).toEqual([]);
    expect(line.hint).toContain("read_resource({ uri, index: 2, offset })");
  });

  it("reads a long text line, and a JSON value's field, in windows", async () => {
    const line = await readAll({ uri: uris.log, index: 2 });
    expect(line.text === LONG_LINE).toBe(true);
    const field = await readAll({ uri: uris.report, path: "/sections/1/text" });
    expect(field.text).toBe(REPORT.sections[1]?.text);
    const limited = await ok<Window>("read_resource", { uri: uris.log, index: 2, offset: 6, limit: 10 });
    expect(limited).toEqual({
      uri: uris.log,
      version: expect.any(Number),
      index: 2,
      text: "word word ",
      offset: 6,
      nextOffset: 16,
      totalChars: LONG_LINE.length,
    });
  });

  it("narrows a window around its match to fit a small budget, never skips it", async () => {
    const found = await search("issues", { pattern: "FATAL", context: 2000 }, 120);
    expect(found.skipped).toBeUndefined();
    const [match] = found.matches as [Match];
    expect(match.text).toContain("FATAL");
    expect(match.text?.length).toBeLessThan(2000);
  });

  it("says how to read a spilled JSON object by path, and reads its long field from the match", async () => {
    const spilled = await call("crash_report", {});
    const [link, summary] = spilled.content as [{ uri: string }, { text: string }];
    expect(summary.text).toContain("one JSON value");
    expect(summary.text).toMatch(/read_resource\(\{ uri, path, offset \}\)/);
    const found = await ok<Found>("search_resource", { uri: link.uri, pattern: "FATAL", limit: 1 });
    const [match] = found.matches as [Match];
    expect(match).toMatchObject({ path: "/body", offset: FATAL_AT });
    expect(match.index).toBeUndefined();
    const window = await ok<Window>("read_resource", {
      uri: link.uri,
      path: "/body",
      offset: FATAL_AT,
      limit: 5,
    });
    expect(window.text).toBe("FATAL");
  });

  it("refuses bad windows with messages that say what to give", async () => {
    const issues = uris.issues as string;
    await refused(
      "read_resource",
      { uri: issues, index: 1, path: "/comments" },
      /\/comments is an array, not a string field/,
    );
    await refused(
      "read_resource",
      { uri: issues, index: 1, path: "/id" },
      /\/id is a number, boolean or null, not a string field/,
    );
    await refused("read_resource", { uri: issues, index: 1, path: "/nope" }, /no field at \/nope/);
    await refused(
      "read_resource",
      { uri: issues, index: 1, path: "body" },
      /must be a JSON Pointer such as \/body/,
    );
    await refused("read_resource", { uri: issues, path: "/body" }, /give index/);
    await refused(
      "read_resource",
      { uri: issues, index: 7, path: "/body" },
      /index 7 is out of range: the resource has 3 items \(0 to 2\)/,
    );
    await refused(
      "read_resource",
      { uri: issues, index: 0, path: "/title", offset: 50 },
      /offset 50 is past the end of the field at \/title \(11 characters\)/,
    );
    await refused(
      "read_resource",
      { uri: issues, index: 0, path: "/title", limit: -1 },
      /limit: Too small: expected number to be >=1/,
    );
    await refused("read_resource", { uri: uris.log, index: 0, path: "/x" }, /this resource is text/);
    await refused(
      "read_resource",
      { uri: uris.log, index: 9 },
      /index 9 is out of range: the resource has 4 lines/,
    );
    await refused(
      "read_resource",
      { uri: uris.report, index: 0, path: "/summary" },
      /not an array: leave index out/,
    );
  });
});
