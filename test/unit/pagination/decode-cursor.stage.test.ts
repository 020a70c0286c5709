import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import { ProtocolError } from "../../../src/errors/protocol-errors.js";
import { CursorCodec } from "../../../src/pagination/cursor-codec.js";
import { createKeyring } from "../../../src/pagination/cursor-keys.js";
import { cursorDecoderFor } from "../../../src/pagination/decode-cursor.stage.js";
import { PAGE } from "../../../src/pagination/page-context.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import type { PaginationSpec } from "../../../src/pagination/pagination-spec.js";
import { TailPolls } from "../../../src/pagination/tail-polls.js";
import type { CapabilityOperation } from "../../../src/pipeline/capability.js";
import { newInvocation } from "../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../src/pipeline/operation.js";
import type { ToolContext } from "../../../src/pipeline/tool-context.js";

const clock = new ManualClock(Date.UTC(2026, 5, 1));
const codec = new CursorCodec({
  keyring: createKeyring("decode-cursor-unit-secret-0123456789"),
  clock,
  ttlMs: 60 * 60_000,
  encrypt: false,
  maxLength: 1024,
});
const pagination: PaginationSpec = {
  stableKey: ["id"],
  limit: 10,
  maxLimit: 50,
  order: "asc",
  fields: ["id", "title", "body"],
  defaultFields: ["id", "title"],
  as: "items",
  link: undefined,
  stream: undefined,
  aggregate: {},
  adaptive: false,
  text: undefined,
  line: undefined,
};
const definitionOf = (kind: "tool" | "resource") =>
  ({
    kind,
    name: "list_articles",
    uri: "articles://list",
    where: "Articles.list",
    capabilities: new Map([[Paginated.capability, pagination]]),
  }) as unknown as OperationDefinition;

/** Runs the stage for one call and gives back the invocation the handler would see (or the refusal). */
async function decode(
  input: Record<string, unknown>,
  options: { kind?: "tool" | "resource"; owner?: string } = {},
) {
  const definition = definitionOf(options.kind ?? "tool");
  const operation: CapabilityOperation = {
    where: "Articles.list",
    kind: definition.kind,
    name: definition.kind === "resource" ? definition.uri : definition.name,
    serviceClass: Object,
    property: "list",
  };
  const stage = cursorDecoderFor(pagination, operation, {
    cursors: codec,
    clock,
    tails: new TailPolls(),
    aggregate: undefined,
    counter: undefined,
  });
  const ctx = {
    owner: options.owner ?? "session:a",
    meta: {},
    signal: new AbortController().signal,
  } as unknown as ToolContext;
  const invocation = newInvocation(definition, {}, undefined, () => ctx);
  invocation.input = input;
  let reached = false;
  const result = await stage(invocation, async () => {
    reached = true;
    return "handler ran";
  });
  return { invocation, result, reached };
}
/** A cursor the paginate stage would have issued after `id` for this input and owner. */
const cursorAfter = (
  id: number,
  input: Record<string, unknown> = { site: "a" },
  principal: string | null = null,
) =>
  codec.encode(
    { id },
    {
      operation: "list_articles",
      canonicalInput: JSON.stringify(input),
      keySpec: "id:asc",
      keyFields: ["id"],
      principal,
    },
  );

describe("cursorDecoderFor", () => {
  it("hands the first page to the handler: no cursor, the default limit and fields, its own input only", async () => {
    const { invocation, reached } = await decode({ site: "a" });
    expect(reached).toBe(true);
    expect(PAGE.get(invocation)).toEqual({ after: null, limit: 10, fields: ["id", "title"], cursor: null });
    expect(invocation.input).toEqual({ site: "a" });
    // The page position, the limit, the fields, the stream range, then no tail and no aggregate.
    expect(invocation.identity).toEqual([null, 10, ["id", "title"], null, null, null]);
  });

  it("clamps the limit to maxLimit and keeps the fields asked", async () => {
    const { invocation } = await decode({ site: "a", limit: 500, fields: ["body"] });
    expect(PAGE.get(invocation)).toMatchObject({ limit: 50, fields: ["body"] });
    expect(invocation.input).toEqual({ site: "a" });
  });

  it("leaves a resource template's own `fields` variable to the handler (pagination adds `fields` to tools only)", async () => {
    const { invocation, reached } = await decode({ site: "a", fields: "summary" }, { kind: "resource" });
    expect(reached).toBe(true);
    expect(invocation.input).toEqual({ site: "a", fields: "summary" });
    // Not pagination's `fields`: the page keeps the default columns.
    expect(PAGE.get(invocation)).toMatchObject({ fields: ["id", "title"] });
  });

  it("opens a cursor issued for the same input, giving the key to start after", async () => {
    const cursor = cursorAfter(42);
    const { invocation } = await decode({ site: "a", cursor });
    expect(PAGE.get(invocation)).toMatchObject({ after: { id: 42 }, cursor });
    expect(invocation.input).toEqual({ site: "a" });
  });

  it("refuses a cursor made for other input, tampered with or expired, telling the client to start again", async () => {
    const cursor = cursorAfter(42);
    const cases = [
      { site: "b", cursor },
      { site: "a", cursor: `${cursor.slice(0, -2)}zz` },
    ];
    for (const input of cases) {
      const { result, reached } = await decode(input);
      expect(reached).toBe(false);
      const text = (result as { content: Array<{ text: string }>; isError: boolean }).content[0]?.text;
      expect((result as { isError: boolean }).isError).toBe(true);
      expect(text).toMatch(
        /^Invalid cursor: .*\. Call list_articles again without `cursor` to start from the first page\.$/,
      );
    }
    const old = cursorAfter(1);
    clock.advance(2 * 60 * 60_000);
    const expired = await decode({ site: "a", cursor: old });
    expect(JSON.stringify(expired.result)).toContain("Invalid cursor: the cursor has expired");
  });

  it("refuses a bad cursor of a resource with -32602 instead of an isError result", async () => {
    const refused = decode({ site: "a", cursor: "not-a-cursor" }, { kind: "resource" });
    await expect(refused).rejects.toBeInstanceOf(ProtocolError);
    await expect(refused).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Call articles://list again without `cursor`"),
    });
  });

  it("binds a principal's cursor to that principal", async () => {
    const mine = cursorAfter(5, { site: "a" }, "principal:alice");
    expect((await decode({ site: "a", cursor: mine }, { owner: "principal:alice" })).reached).toBe(true);
    expect((await decode({ site: "a", cursor: mine }, { owner: "principal:mallory" })).reached).toBe(false);
  });
});
