import { FrugalConfigError, McpFactory, McpModule, McpService, Prompt, Resource, Tool } from "frugal-mcp";
import { describe, expect, it } from "vitest";

const startupError = async (module: Function) => {
  const error = await McpFactory.create(module, { name: "t", version: "1" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FrugalConfigError);
  return (error as Error).message;
};

describe("visibleTo at start-up", () => {
  it("refuses a visibleTo that is no function, naming the decorator and the method", async () => {
    @McpService()
    class A {
      @Tool({ visibleTo: "admins" as never }) purge() {}
    }
    @McpModule({ services: [A] })
    class M {}
    expect(await startupError(M)).toBe(
      'A.purge: @Tool `visibleTo` must be a function of the caller, not "admins". Fix: e.g. visibleTo: ({ auth }) => auth?.scopes.includes("admin") ?? false.',
    );
  });

  it("checks it on resources and prompts too", async () => {
    @McpService()
    class R {
      @Resource("x://y", { visibleTo: true as never }) y() {}
    }
    @McpModule({ services: [R] })
    class MR {}
    expect(await startupError(MR)).toContain(
      "@Resource `visibleTo` must be a function of the caller, not true",
    );
    @McpService()
    class P {
      @Prompt({ visibleTo: {} as never }) p() {}
    }
    @McpModule({ services: [P] })
    class MP {}
    expect(await startupError(MP)).toContain(
      "@Prompt `visibleTo` must be a function of the caller, not an object",
    );
  });
});
