import type { Prompt } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import type { RunOperation } from "../../../../src/protocol/calls/run-operation.js";
import type { ProtocolOperation } from "../../../../src/protocol/operations/operation.js";
import { promptOperations } from "../../../../src/protocol/operations/prompt-operations.js";
import { newSession } from "../../../../src/protocol/session.js";
import { catalogueOf } from "../../../support/unit-catalogue.js";

const listings: Prompt[] = [{ name: "review" }, { name: "summarize" }];
const promptOf = (listing: Prompt) => ({
  definition: { kind: "prompt", name: listing.name, listing, capabilities: new Map() },
  execute: async () => undefined,
});
const registry = { prompts: new Map(listings.map((listing) => [listing.name, promptOf(listing)])) };
const runtime = {
  registry,
  catalogue: catalogueOf(registry as never),
  listPageSize: 50,
} as unknown as AppRuntime;
const run: RunOperation = async (_session, operation, args) => ({
  messages: [
    {
      role: "user",
      content: {
        type: "text",
        text: `${(operation.definition as { name: string }).name} ${JSON.stringify(args)}`,
      },
    },
  ],
});
const [list, get] = promptOperations(runtime, run) as [ProtocolOperation, ProtocolOperation];
const session = newSession(
  () => "s",
  () => undefined,
);
const call = (op: ProtocolOperation, params: unknown) =>
  op.handle(session, op.schema.parse({ method: op.method, params }), {} as RequestExtra);

describe("prompt operations", () => {
  it("lists every prompt in one page when they fit", async () => {
    expect(await call(list, {})).toEqual({ prompts: listings });
  });

  it("gets a known prompt with its arguments", async () => {
    expect(await call(get, { name: "review", arguments: { file: "a.ts" } })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: 'review {"file":"a.ts"}' } }],
    });
  });

  it("refuses an unknown prompt with -32602, pointing at prompts/list", async () => {
    await expect(call(get, { name: "nope" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'Unknown prompt "nope". Call prompts/list to see the available prompts.',
      ),
    });
  });
});
