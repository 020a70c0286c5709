import {
  McpFactory,
  McpModule,
  McpService,
  Prompt,
  FrugalConfigError as PublicConfigError,
  Resource,
} from "frugal-mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  assertPlainMethod,
  bindCompletions,
  bindHandler,
  describeMember,
  type MemberToBuild,
  objectSchemaOf,
} from "../../../src/builder/build-context.js";
import { scanService } from "../../../src/builder/scan-service.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";

const SECRET = Symbol("secret");

class Articles {
  greeting = "hello";
  @Tool({ input: { name: z.string() } }) greet({ name }: { name: string }) {
    return `${this.greeting} ${name}`;
  }
  // @ts-expect-error: the compiler refuses a getter too; the builder must refuse it for JavaScript users
  @Tool()
  get total() {
    return 1;
  }
  @Tool() [SECRET]() {}
}

function memberToBuild(property: string | symbol, instance: object = new Articles()): MemberToBuild {
  const member = scanService(Articles).find((m) => m.property === property);
  if (!member) throw new Error(`${String(property)} not scanned`);
  return {
    serviceClass: Articles,
    instance,
    member,
    classMetadata: {},
    appText: undefined,
  };
}

describe("describeMember / assertPlainMethod", () => {
  it("names a member as Class.method and passes a plain method", () => {
    expect(describeMember(memberToBuild("greet"))).toBe("Articles.greet");
    expect(assertPlainMethod(memberToBuild("greet"), "@Tool")).toBe("greet");
  });

  it("refuses a getter and a symbol-keyed method with the fix", () => {
    expect(() => assertPlainMethod(memberToBuild("total"), "@Tool")).toThrow(
      new FrugalConfigError(
        "Articles.total",
        "@Tool can only decorate a method, not a getter",
        "turn the getter into a method (e.g. `total() { … }`)",
      ),
    );
    expect(() => assertPlainMethod(memberToBuild(SECRET), "@Tool")).toThrow(
      "Articles.Symbol(secret): @Tool cannot decorate a symbol-keyed method. Fix: use a string name.",
    );
  });
});

describe("bindHandler", () => {
  it("calls the method on its instance, as looked up on that instance (overrides apply)", () => {
    const instance = new Articles();
    instance.greeting = "hi";
    expect(bindHandler(memberToBuild("greet", instance), "greet")({ name: "Ada" }, {} as never)).toBe(
      "hi Ada",
    );
    class Polite extends Articles {
      override greet({ name }: { name: string }) {
        return `good day ${name}`;
      }
    }
    expect(bindHandler(memberToBuild("greet", new Polite()), "greet")({ name: "Ada" }, {} as never)).toBe(
      "good day Ada",
    );
  });
});

describe("objectSchemaOf", () => {
  it("makes a shape a strict object, and fails naming the option when it is no zod schema", () => {
    const schema = objectSchemaOf(memberToBuild("greet"), "input", { name: z.string() });
    expect(schema?.safeParse({ name: "a" }).success).toBe(true);
    expect(schema?.safeParse({ name: "a", nmae: "typo" }).success).toBe(false);
    expect(objectSchemaOf(memberToBuild("greet"), "input", undefined)).toBeUndefined();
    expect(() => objectSchemaOf(memberToBuild("greet"), "output", { total: 5 as never })).toThrow(
      /^Articles\.greet: `output` is invalid: field "total" is not a zod type\. Fix: /,
    );
  });
});

describe("bindCompletions", () => {
  it("runs each completion with the service instance as `this`, and freezes the table", async () => {
    const instance = new Articles();
    const bound = bindCompletions(memberToBuild("greet", instance), {
      name(this: Articles, value: string) {
        return [`${this.greeting}-${value}`];
      },
    });
    expect(await bound.name?.("a", { arguments: {} })).toEqual(["hello-a"]);
    expect(Object.isFrozen(bound)).toBe(true);
    expect(bindCompletions(memberToBuild("greet"), undefined)).toEqual({});
  });
});

const startupError = async (module: Function) => {
  const error = await McpFactory.create(module, { name: "t", version: "1" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PublicConfigError);
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
