import { describe, expect, it } from "vitest";
import type { Registry } from "../../../../src/builder/registry.js";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import type { ProtocolOperation } from "../../../../src/protocol/operations/operation.js";
import { utilityOperations } from "../../../../src/protocol/operations/utility-operations.js";
import { newSession } from "../../../../src/protocol/session.js";
import { UriTemplate } from "../../../../src/uri/uri-template.js";
import { catalogueOf } from "../../../support/unit-catalogue.js";

const cities = Array.from({ length: 150 }, (_, i) => `city-${i}`);
const registry = {
  tools: new Map(),
  prompts: new Map([
    [
      "trip",
      {
        definition: {
          capabilities: new Map(),
          complete: {
            city: async (value: string, context: { arguments: Record<string, string> }) =>
              cities.filter((c) => c.startsWith(value)).map((c) => `${c}${context.arguments.country ?? ""}`),
          },
        },
      },
    ],
  ]),
  staticResources: new Map([["config://app", { definition: { complete: {}, capabilities: new Map() } }]]),
  templates: [
    {
      definition: {
        uri: "weather://{city}",
        template: new UriTemplate("weather://{city}"),
        complete: { city: async () => ["paris", "rome"] },
        capabilities: new Map(),
      },
    },
  ],
} as unknown as Registry;

const runtime = { registry, catalogue: catalogueOf(registry) } as unknown as AppRuntime;
const [complete, setLevel] = utilityOperations(runtime) as [ProtocolOperation, ProtocolOperation];
const session = newSession(
  () => "s",
  () => undefined,
);
const call = (op: ProtocolOperation, params: unknown) =>
  op.handle(session, op.schema.parse({ method: op.method, params }), {} as RequestExtra);

describe("completion/complete", () => {
  it("completes a prompt argument with its context, capped at 100 values with the total", async () => {
    const result = (await call(complete, {
      ref: { type: "ref/prompt", name: "trip" },
      argument: { name: "city", value: "city-1" },
      context: { arguments: { country: "-fr" } },
    })) as { completion: { values: string[]; total: number; hasMore: boolean } };
    expect(result.completion.values[0]).toBe("city-1-fr");
    expect(result.completion.total).toBe(61); // city-1, city-10..19, city-100..149
    expect(result.completion.hasMore).toBe(false);
    const all = (await call(complete, {
      ref: { type: "ref/prompt", name: "trip" },
      argument: { name: "city", value: "" },
    })) as { completion: { values: string[]; total: number; hasMore: boolean } };
    expect([all.completion.values.length, all.completion.total, all.completion.hasMore]).toEqual([
      100,
      150,
      true,
    ]);
  });

  it("completes a template variable by URI, and answers nothing for a resource or argument without a completer", async () => {
    expect(
      await call(complete, {
        ref: { type: "ref/resource", uri: "weather://{city}" },
        argument: { name: "city", value: "" },
      }),
    ).toEqual({ completion: { values: ["paris", "rome"], total: 2, hasMore: false } });
    expect(
      await call(complete, {
        ref: { type: "ref/resource", uri: "config://app" },
        argument: { name: "x", value: "" },
      }),
    ).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    expect(
      await call(complete, {
        ref: { type: "ref/prompt", name: "trip" },
        argument: { name: "other", value: "" },
      }),
    ).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it("refuses an unknown prompt or template with -32602", async () => {
    await expect(
      call(complete, { ref: { type: "ref/prompt", name: "nope" }, argument: { name: "a", value: "" } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown prompt "nope".') });
    await expect(
      call(complete, { ref: { type: "ref/resource", uri: "x://{y}" }, argument: { name: "y", value: "" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown resource template "x://{y}".'),
    });
  });
});

describe("logging/setLevel", () => {
  it("sets the session's log level", async () => {
    expect(await call(setLevel, { level: "warning" })).toEqual({});
    expect(session.logLevel).toBe("warning");
  });
});
