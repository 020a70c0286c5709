import { describe, expect, it } from "vitest";
import { buildRegistry } from "../../../src/builder/build-registry.js";
import { Cached } from "../../../src/cache/cached.capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import { specOf } from "../../../src/pipeline/capability.js";
import type { StageFactory } from "../../../src/pipeline/stage-factory.js";
import { buildServices, invocationOf, recordingLogger } from "../../support/unit-build.js";

@McpService()
class Articles {
  @Tool() listArticles() {
    return ["a"];
  }
  @Resource("config://app") config() {}
  @Resource("articles://{id}") article() {}
  @Resource("articles://{id}/raw") raw() {}
  @Prompt() review() {
    return "";
  }
}

describe("buildRegistry", () => {
  it("sorts every decorated member into tools, static resources, templates (in order) and prompts", () => {
    const registry = buildServices([Articles]);
    expect([...registry.tools.keys()]).toEqual(["list_articles"]);
    expect([...registry.staticResources.keys()]).toEqual(["config://app"]);
    expect(registry.templates.map((t) => t.definition.uri)).toEqual([
      "articles://{id}",
      "articles://{id}/raw",
    ]);
    expect([...registry.prompts.keys()]).toEqual(["review"]);
    expect(Object.isFrozen(registry)).toBe(true);
  });

  it("composes each operation's pipeline from the stage factories in PIPELINE_ORDER, leaving out stages that do not apply", async () => {
    const trace: string[] = [];
    const factory = (name: StageFactory["name"], onlyCached = false): StageFactory => ({
      name,
      create: (definition) =>
        onlyCached && !specOf(definition, Cached.capability)
          ? undefined
          : async (_invocation, next) => {
              trace.push(name);
              return next();
            },
    });
    @McpService()
    class Svc {
      @Tool() plain() {
        trace.push("handler");
        return 1;
      }
      @Tool() @Cached({ ttl: 10 }) cached() {
        trace.push("handler");
        return 2;
      }
    }
    const registry = buildServices([Svc], {
      stages: [factory("shape"), factory("cache", true), factory("validate")],
    });
    const plain = registry.tools.get("plain");
    expect(await plain?.execute(invocationOf(plain.definition))).toBe(1);
    expect(trace).toEqual(["validate", "shape", "handler"]);
    trace.length = 0;
    const cached = registry.tools.get("cached");
    expect(await cached?.execute(invocationOf(cached.definition))).toBe(2);
    expect(trace).toEqual(["validate", "cache", "shape", "handler"]);
  });

  it("turns a handler's synchronous throw into a rejection", async () => {
    @McpService()
    class Svc {
      @Tool() boom() {
        throw new Error("sync failure");
      }
    }
    const boom = buildServices([Svc]).tools.get("boom");
    if (!boom) throw new Error("not built");
    await expect(boom.execute(invocationOf(boom.definition))).rejects.toThrow("sync failure");
  });

  it("refuses a class that is not an @McpService, and says how to fix it", () => {
    class NotAService {
      @Tool() x() {}
    }
    expect(() => buildServices([NotAService])).toThrow(
      new FrugalConfigError(
        "NotAService",
        "is listed in a module's `services` but is not decorated with @McpService()",
        "add @McpService() to the class",
      ),
    );
  });

  it("refuses two operations with one name or URI, naming both", () => {
    @McpService()
    class Other {
      @Tool({ name: "list_articles" }) list() {}
      @Resource("articles://{id}") again() {}
    }
    expect(() => buildServices([Articles, Other])).toThrow(
      'Other.list: tool name "list_articles" is already used by Articles.listArticles',
    );
    @McpService()
    class Templates {
      @Resource("articles://{id}") again() {}
    }
    expect(() => buildServices([Articles, Templates])).toThrow(
      'Templates.again: URI template "articles://{id}" is already used by Articles.article',
    );
  });

  it("refuses behaviour decorators on a member that is no tool, resource or prompt", () => {
    @McpService()
    class Orphan {
      @Cached({ ttl: 5 }) helper() {}
    }
    expect(() => buildServices([Orphan])).toThrow(
      "Orphan.helper: has @Cached but is not a @Tool, @Resource or @Prompt, so it would do nothing. Fix: add @Tool(), @Resource(uri) or @Prompt() to the method, or remove the decorator.",
    );
  });

  it("accepts a resolved service with its own instance, whose handler runs on that instance", () => {
    const instance = new Articles();
    const registry = buildRegistry([{ serviceClass: Articles, instance }], {
      stages: [],
      services: { resolve: () => undefined as never, logger: recordingLogger() },
    });
    expect(registry.tools.get("list_articles")?.definition.handler({}, {} as never)).toEqual(["a"]);
  });
});
