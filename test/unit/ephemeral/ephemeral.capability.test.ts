import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { Ephemeral, SPILLED_SCHEMA } from "../../../src/ephemeral/ephemeral.capability.js";
import { metadataStore } from "../../../src/metadata/store.js";
import { specOf } from "../../../src/pipeline/capability.js";
import { buildServices, toolOf } from "../../support/unit-build.js";

const recordedOptions = (records: readonly { capability: object; options: unknown }[] | undefined) =>
  records?.find((entry) => entry.capability === Ephemeral.capability)?.options;

describe("@Ephemeral: what it records", () => {
  it("records a frozen copy of its options on the method, and empty options by default", () => {
    const options: { ttl: number; mimeType: string } = { ttl: 3_600_000, mimeType: "application/json" };
    class Logs {
      @Ephemeral(options) search() {}
      @Ephemeral() dump() {}
    }
    options.ttl = 1;
    const recorded = recordedOptions(metadataStore.ownMethod(Logs.prototype, "search")?.capabilities);
    expect(recorded).toEqual({ ttl: 3_600_000, mimeType: "application/json" });
    expect(Object.isFrozen(recorded)).toBe(true);
    expect(recordedOptions(metadataStore.ownMethod(Logs.prototype, "dump")?.capabilities)).toEqual({});
  });

  it("records a field it was put on as a field, for start-up to refuse by name", () => {
    class Logs {
      @Ephemeral() results: unknown;
    }
    expect(metadataStore.ownMethod(Logs.prototype, "results")?.memberKind).toBe("field");
    expect([...metadataStore.ownMembers(Logs.prototype)]).toEqual(["results"]);
  });
});

describe("@Ephemeral: resolved at start-up", () => {
  it("fills defaults: over budget only, owner scope, a 200-token preview, the tool's name", () => {
    @McpService()
    class Logs {
      @Tool() @Ephemeral() list() {}
      @Tool() @Ephemeral({ preview: false }) bare() {}
      @Tool() @Ephemeral({ preview: 50, when: "always" }) always() {}
    }
    expect(specOf(toolOf(Logs, "list"), Ephemeral.capability)).toEqual({
      when: "overBudget",
      ttl: undefined,
      mimeType: undefined,
      name: "list",
      description: undefined,
      scope: "owner",
      preview: 200,
    });
    expect(specOf(toolOf(Logs, "bare"), Ephemeral.capability)?.preview).toBe(0);
    expect(specOf(toolOf(Logs, "always"), Ephemeral.capability)).toMatchObject({
      preview: 50,
      when: "always",
    });
  });

  it("refuses it outside tools and a preview that is no number of tokens", () => {
    @McpService()
    class OnResource {
      @Resource("logs://all") @Ephemeral() all() {}
    }
    @McpService()
    class OnPrompt {
      @Prompt() @Ephemeral() ask() {}
    }
    @McpService()
    class Short {
      @Tool() @Ephemeral({ preview: "short" as never }) list() {}
    }
    for (const [service, where] of [
      [OnResource, "OnResource.all"],
      [OnPrompt, "OnPrompt.ask"],
    ] as const) {
      expect(() => buildServices([service])).toThrow(
        `${where}: @Ephemeral applies to tools only. Fix: remove @Ephemeral, or make this method a @Tool`,
      );
    }
    expect(() => buildServices([Short])).toThrow(
      '@Ephemeral `preview` must be true, false or a number of tokens, not "short"',
    );
  });

  it("widens a declared output schema with the spilled answer", () => {
    @McpService()
    class Logs {
      @Tool({ output: { lines: z.array(z.string()) } }) @Ephemeral() list() {
        return { lines: [] };
      }
    }
    const schema = toolOf(Logs, "list").outputSchema;
    expect(
      schema?.safeParse({ spilled: { uri: "ephemeral://list/1", size: 3, expiresAt: "x" } }).success,
    ).toBe(true);
    expect(schema?.safeParse({ lines: ["a"] }).success).toBe(true);
    expect(SPILLED_SCHEMA.safeParse({ lines: ["a"] }).success).toBe(false);
  });
});
