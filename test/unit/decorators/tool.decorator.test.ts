import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";

describe("@Tool", () => {
  it("records its options on the method, as a frozen copy the caller cannot change afterwards", () => {
    const options = { description: "Add two numbers", input: { a: z.number(), b: z.number() } };
    class MathService {
      @Tool(options) add({ a, b }: { a: number; b: number }) {
        return a + b;
      }
    }
    options.description = "changed later";
    const record = metadataStore.ownMethod(MathService.prototype, "add");
    expect(record?.memberKind).toBe("method");
    expect(record?.tool?.description).toBe("Add two numbers");
    expect(record?.tool?.input).toBe(options.input);
    expect(Object.isFrozen(record?.tool)).toBe(true);
  });

  it("records empty options when given none, and a getter as a getter for start-up to refuse", () => {
    class S {
      @Tool() now() {}
      // @ts-expect-error: the compiler refuses a getter too; JavaScript users get the start-up error
      @Tool()
      get total() {
        return 1;
      }
    }
    expect(metadataStore.ownMethod(S.prototype, "now")).toEqual({ memberKind: "method", tool: {} });
    expect(metadataStore.ownMethod(S.prototype, "total")?.memberKind).toBe("getter");
  });
});
