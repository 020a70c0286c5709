import { FrugalConfigError, McpFactory, McpModule, McpService, Prompt, Resource, Tool } from "frugal-mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as zMini } from "zod/mini";
import { z as z3 } from "zod/v3";

const create = (module: Function) => McpFactory.create(module, { name: "t", version: "1" });

async function startupError(module: Function): Promise<FrugalConfigError> {
  const error = await create(module).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FrugalConfigError);
  return error as FrugalConfigError;
}

describe("start-up validation", () => {
  it("refuses two tools with one name, naming both methods and the fix", async () => {
    @McpService()
    class A {
      @Tool() listItems() {}
    }
    @McpService()
    class B {
      @Tool({ name: "list_items" }) other() {}
    }
    @McpModule({ services: [A, B] })
    class M {}
    const error = await startupError(M);
    expect(error.message).toBe(
      'B.other: tool name "list_items" is already used by A.listItems. Fix: give one of them a distinct name (the decorator\'s `name` option, or another URI).',
    );
  });

  it("refuses a decorator on a getter", async () => {
    @McpService()
    class A {
      // @ts-expect-error: the compiler refuses a decorated getter too; this checks start-up does
      @Tool()
      get value() {
        return 1;
      }
    }
    @McpModule({ services: [A] })
    class M {}
    expect((await startupError(M)).message).toMatch(
      /^A\.value: @Tool can only decorate a method, not a getter/,
    );
  });

  it("refuses a template variable without a matching input field", async () => {
    @McpService()
    class A {
      @Resource("items://{site}/{id}", { input: { site: z.string() } })
      item() {}
    }
    @McpModule({ services: [A] })
    class M {}
    const error = await startupError(M);
    expect(error.message).toContain("A.item");
    expect(error.message).toContain('template variable "id"');
    expect(error.message).toContain("Fix: add `id: z.string()`");
  });

  it("refuses a required query variable, a bad template and a relative URI", async () => {
    @McpService()
    class Required {
      @Resource("logs://{app}{?limit}", { input: { app: z.string(), limit: z.string() } })
      logs() {}
    }
    @McpModule({ services: [Required] })
    class M1 {}
    expect((await startupError(M1)).message).toContain("may be missing");

    @McpService()
    class Broken {
      @Resource("logs://{app name}")
      logs() {}
    }
    @McpModule({ services: [Broken] })
    class M2 {}
    expect((await startupError(M2)).message).toContain("Broken.logs: invalid expression");

    @McpService()
    class Relative {
      @Resource("just-a-path")
      logs() {}
    }
    @McpModule({ services: [Relative] })
    class M3 {}
    expect((await startupError(M3)).message).toContain("is not an absolute URI");
  });

  it("refuses completions for unknown variables and arguments", async () => {
    @McpService()
    class A {
      @Prompt({ input: { topic: z.string() }, complete: { subject: () => [] } })
      explain() {}
    }
    @McpModule({ services: [A] })
    class M {}
    expect((await startupError(M)).message).toContain('names argument "subject"');
  });

  it("refuses invalid tool names and non-zod inputs", async () => {
    @McpService()
    class A {
      @Tool({ name: "has space" }) bad() {}
    }
    @McpModule({ services: [A] })
    class M1 {}
    expect((await startupError(M1)).message).toContain('tool name "has space" is not allowed');

    @McpService()
    class B {
      @Tool({ input: { site: "string" } as never }) bad() {}
    }
    @McpModule({ services: [B] })
    class M2 {}
    expect((await startupError(M2)).message).toContain('field "site" is not a zod type');
  });

  it("names a zod 3 schema (zod/v3) or a zod mini one as such, with the import that fixes it", async () => {
    @McpService()
    class FieldV3 {
      @Tool({ input: { tag: z3.string() } as never }) bad() {}
    }
    @McpModule({ services: [FieldV3] })
    class M1 {}
    const field = (await startupError(M1)).message;
    expect(field).toContain('`input` is invalid: field "tag" is a zod 3 schema (imported from "zod/v3"');
    expect(field).toContain('Fix: import `z` from "zod" (not "zod/v3") with zod 4 installed');

    @McpService()
    class WholeV3 {
      @Tool({ input: z3.object({ tag: z3.string() }) as never }) bad() {}
    }
    @McpModule({ services: [WholeV3] })
    class M2 {}
    expect((await startupError(M2)).message).toContain("`input` is invalid: the schema is a zod 3 schema");

    @McpService()
    class Mini {
      @Prompt({ input: { topic: zMini.string() } as never }) bad() {
        return "x";
      }
    }
    @McpModule({ services: [Mini] })
    class M3 {}
    const mini = (await startupError(M3)).message;
    expect(mini).toContain('field "topic" is a zod mini (or zod core) schema');
    expect(mini).toContain('Fix: import `z` from "zod" (the classic API)');
  });

  it("refuses a service without @McpService and a module without @McpModule", async () => {
    class Plain {
      @Tool() hello() {}
    }
    @McpModule({ services: [Plain] })
    class M {}
    expect((await startupError(M)).message).toContain(
      "Plain: is listed in a module's `services` but is not decorated with @McpService()",
    );

    class NotAModule {}
    @McpModule({ imports: [NotAModule] })
    class Root {}
    expect((await startupError(Root)).message).toContain(
      "Root imports NotAModule: this class is not decorated with @McpModule",
    );
  });

  it("refuses a dependency the container cannot build", async () => {
    class Unregistered {
      constructor(readonly url: string) {}
    }
    @McpService()
    class A {
      constructor(readonly dep: Unregistered) {}
      @Tool() hello() {}
    }
    @McpModule({ services: [A] })
    class M {}
    const error = await startupError(M);
    expect(error.message).toBe(
      'A: constructor parameter #0 "dep" needs Unregistered, which no module provides. Fix: add Unregistered to the `providers` of M (the module that lists A); a class is built only when a module provides it, once per app.',
    );
  });

  it("records metadata without mutating the options passed to a decorator", () => {
    const options = { description: "x", input: { a: z.string() } };
    const snapshot = { ...options };
    @McpService()
    class A {
      @Tool(options) one() {}
      @Tool(options) two() {}
    }
    expect(A).toBeDefined();
    expect(options).toEqual(snapshot);
    expect(Object.isFrozen(options)).toBe(false);
  });
});
