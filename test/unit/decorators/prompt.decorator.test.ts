import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";

describe("@Prompt", () => {
  it("records a frozen copy of its options on the method", () => {
    const options = { description: "Review code", input: { code: z.string() } };
    class Prompts {
      @Prompt(options) review({ code }: { code: string }) {
        return `Please review:\n${code}`;
      }
      @Prompt() plain() {
        return "hi";
      }
    }
    options.description = "changed";
    const record = metadataStore.ownMethod(Prompts.prototype, "review");
    expect(record?.prompt?.description).toBe("Review code");
    expect(Object.isFrozen(record?.prompt)).toBe(true);
    expect(metadataStore.ownMethod(Prompts.prototype, "plain")).toEqual({ memberKind: "method", prompt: {} });
  });
});
