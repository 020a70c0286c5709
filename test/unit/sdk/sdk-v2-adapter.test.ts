import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import {
  asRequestExtra,
  envelopeFields,
  namesLogLevel,
  sendOnContext,
} from "../../../src/sdk/sdk-v2-adapter.js";

/** The parts of a v2 handler context the adapter reads (installV2Handler is covered end to end). */
function contextWith(mcpReq: Record<string, unknown>): ServerContext {
  return { mcpReq } as unknown as ServerContext;
}

describe("sdk-v2-adapter", () => {
  it("reads the log level and client capabilities of a request's envelope", () => {
    const ctx = contextWith({
      envelope: {
        "io.modelcontextprotocol/logLevel": "info",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      },
    });
    expect(namesLogLevel(ctx)).toBe(true);
    expect(envelopeFields(ctx)).toEqual({ logLevel: "info", capabilities: { elicitation: {} } });
  });

  it("finds no level and no capabilities in a request without an envelope", () => {
    const ctx = contextWith({});
    expect(namesLogLevel(ctx)).toBe(false);
    expect(envelopeFields(ctx)).toEqual({ logLevel: undefined, capabilities: undefined });
  });

  it("sends a question on the context's channel, with the signal when there is one", async () => {
    const sent: unknown[] = [];
    const ctx = contextWith({ send: (request: unknown, options: unknown) => sent.push([request, options]) });
    const signal = new AbortController().signal;
    await sendOnContext(ctx, { method: "elicitation/create" }, signal);
    await sendOnContext(ctx, { method: "sampling/createMessage" }, undefined);
    expect(sent).toEqual([
      [{ method: "elicitation/create" }, { signal }],
      [{ method: "sampling/createMessage" }, undefined],
    ]);
  });

  it("asRequestExtra keeps the object it is given", () => {
    const extra = { requestId: 1 };
    expect(asRequestExtra(extra)).toBe(extra);
  });
});
