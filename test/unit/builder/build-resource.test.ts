import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "../../../src/decorators/define-capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Ephemeral } from "../../../src/ephemeral/ephemeral.capability.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import { buildServices, resourceOf } from "../../support/unit-build.js";

describe("buildResource", () => {
  it("builds a static resource with its listing", () => {
    @McpService()
    class Config {
      @Resource("config://app", { title: "App config", mimeType: "application/json", meta: { v: 1 } })
      appConfig() {}
    }
    const resource = resourceOf(Config, "config://app");
    expect(resource.template).toBeUndefined();
    expect(resource.listing).toEqual({
      uri: "config://app",
      name: "app_config",
      title: "App config",
      mimeType: "application/json",
      _meta: { v: 1 },
    });
    expect(resource.list).toBeUndefined();
  });

  it("builds a template whose variables are strings (query ones optional) without an input", () => {
    @McpService()
    class Logs {
      @Resource("logs://{app}{?since}") logs() {}
    }
    const resource = resourceOf(Logs, "logs://{app}{?since}");
    expect(resource.template?.variables).toEqual(["app", "since"]);
    expect(resource.listing).toEqual({ uriTemplate: "logs://{app}{?since}", name: "logs" });
    // Only paginated templates get a schema made from their variables; others pass them as sent.
    expect(resource.inputSchema).toBeUndefined();
  });

  it("runs list and completions with the service as `this`", async () => {
    @McpService()
    class Articles {
      sites = ["blog", "docs"];
      @Resource("articles://{site}", {
        list(this: Articles) {
          return this.sites.map((site) => ({ uri: `articles://${site}`, name: site }));
        },
        complete: {
          site(this: Articles, prefix: string) {
            return this.sites.filter((site) => site.startsWith(prefix));
          },
        },
      })
      bySite() {}
    }
    const resource = resourceOf(Articles, "articles://{site}");
    expect(await resource.list?.()).toEqual([
      { uri: "articles://blog", name: "blog" },
      { uri: "articles://docs", name: "docs" },
    ]);
    expect(await resource.complete.site?.("d", { arguments: {} })).toEqual(["docs"]);
  });

  it("gives a paginated template cursor and limit query variables and lists a paginated static URI", async () => {
    @McpService()
    class Feed {
      @Resource("feed://{topic}") @Paginated("id") byTopic() {}
      @Resource("feed://all", { name: "all" }) @Paginated("id") all() {}
    }
    const template = resourceOf(Feed, "feed://{topic}");
    expect(template.template?.template).toBe("feed://{topic}{?cursor,limit}");
    expect(Object.keys(template.inputSchema?.shape ?? {})).toEqual(
      expect.arrayContaining(["topic", "cursor", "limit"]),
    );
    const all = resourceOf(Feed, "feed://all");
    expect(all.template?.template).toBe("feed://all{?cursor,limit}");
    expect(await all.list?.()).toEqual([{ uri: "feed://all", name: "all" }]);
  });

  it("takes the inputs any capability adds as query variables, making a static URI a template", async () => {
    const Traced = defineCapability({
      name: "traced",
      decorator: "@Traced",
      options: () => ({}),
      input: (_spec, input) => (input ?? z.strictObject({})).extend({ trace: z.string().optional() }),
    });
    @McpService()
    class Feed {
      @Resource("feed://{topic}") @Traced() byTopic() {}
      @Resource("feed://all", { name: "all" }) @Traced() all() {}
      @Resource("feed://plain") plain() {}
    }
    const template = resourceOf(Feed, "feed://{topic}");
    expect(template.template?.template).toBe("feed://{topic}{?trace}");
    expect(Object.keys(template.inputSchema?.shape ?? {})).toEqual(["topic", "trace"]);
    const all = resourceOf(Feed, "feed://all");
    expect(all.template?.template).toBe("feed://all{?trace}");
    expect(await all.list?.()).toEqual([{ uri: "feed://all", name: "all" }]);
    expect(resourceOf(Feed, "feed://plain").template).toBeUndefined();
  });

  it("refuses what a resource cannot serve, naming the method and the fix", () => {
    const refusal = (build: () => Function) => {
      try {
        buildServices([build() as new () => object]);
      } catch (error) {
        return (error as Error).message;
      }
      return "built";
    };
    expect(
      refusal(() => {
        @McpService()
        class A {
          @Resource("config/app") r() {}
        }
        return A;
      }),
    ).toBe('A.r: "config/app" is not an absolute URI. Fix: start it with a scheme, e.g. "config://app".');
    expect(
      refusal(() => {
        @McpService()
        class B {
          @Resource("b://x") @Ephemeral() r() {}
        }
        return B;
      }),
    ).toMatch(/^B\.r: @Ephemeral applies to tools only/);
    expect(
      refusal(() => {
        @McpService()
        class C {
          @Resource("c://x", { list: () => [] }) r() {}
        }
        return C;
      }),
    ).toBe(
      'C.r: `list` and `complete` only apply to URI templates. Fix: remove them, or use a template such as "c://x/{id}".',
    );
    expect(
      refusal(() => {
        @McpService()
        class D {
          @Resource("d://{id}", { complete: { name: () => [] } }) r() {}
        }
        return D;
      }),
    ).toBe('D.r: `complete` names "name", which is not a variable of "d://{id}". Fix: use one of: id.');
    expect(
      refusal(() => {
        @McpService()
        class E {
          @Resource("e://{id}", { input: { id: z.string(), extra: z.string() } }) r() {}
        }
        return E;
      }),
    ).toBe(
      'E.r: `input` field "extra" is not a variable of "e://{id}". Fix: add {extra} or {?extra} to the template, or remove the field.',
    );
    expect(
      refusal(() => {
        @McpService()
        class F {
          @Resource("f://{id}") @Paginated("id", { line: (item: unknown) => String(item) }) r() {}
        }
        return F;
      }),
    ).toMatch(/^F\.r: @Paginated `line` applies to tools only/);
  });
});
