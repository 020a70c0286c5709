import {
  Budget,
  Cached,
  Ephemeral,
  FrugalConfigError,
  Invalidates,
  type McpAppOptions,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Prompt,
  type PromptOptions,
  Resource,
  type ResourceOptions,
  Tool,
  type ToolOptions,
} from "frugal-mcp";
import { describe, expect, it } from "vitest";

/** Any frugal decorator applied to a method (or, for `@Budget`, to a class). */
type Decorate = (target: object, property: string | symbol, descriptor?: PropertyDescriptor) => void;

/** Starts an app serving `services` and returns the start-up error's message. */
async function startupMessage(services: Function[], options: Partial<McpAppOptions> = {}): Promise<string> {
  @McpModule({ services: services as never })
  class AppModule {}
  const error = await McpFactory.create(AppModule, { name: "t", version: "1", ...options }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FrugalConfigError);
  return (error as FrugalConfigError).message;
}

/** `Svc.list`: a tool with `decorate` on it. */
function toolWith(decorate: Decorate): Function {
  @McpService()
  class Svc {
    @Tool()
    @decorate
    list() {}
  }
  return Svc;
}

const never = <T>(value: unknown) => value as T;
const match = () => true;

describe("start-up checks of @Budget", () => {
  const bad: Array<[string, unknown]> = [
    ["0", 0],
    ["-1", -1],
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ['"100"', "100"],
  ];

  it.each(bad)("refuses @Budget(%s) on a method", async (shown, tokens) => {
    expect(await startupMessage([toolWith(Budget(never(tokens)))])).toBe(
      `Svc.list: @Budget \`tokens\` must be a positive whole number, not ${shown}. Fix: e.g. @Budget(2000).`,
    );
  });

  it.each(bad)("refuses @Budget(%s) on a class", async (shown, tokens) => {
    @Budget(never(tokens))
    @McpService()
    class Svc {
      @Tool() list() {}
    }
    expect(await startupMessage([Svc])).toBe(
      `Svc: @Budget \`tokens\` must be a positive whole number, not ${shown}. Fix: e.g. @Budget(2000).`,
    );
  });

  it("refuses a class @Budget even when every method overrides it", async () => {
    @Budget(0)
    @McpService()
    class Svc {
      @Tool() @Budget(100) list() {}
    }
    expect(await startupMessage([Svc])).toBe(
      "Svc: @Budget `tokens` must be a positive whole number, not 0. Fix: e.g. @Budget(2000).",
    );
  });

  it("refuses an unknown onExceed", async () => {
    expect(await startupMessage([toolWith(Budget(100, { onExceed: never("never") }))])).toBe(
      'Svc.list: @Budget `onExceed` must be "auto" or "error", not "never". Fix: use "auto" or "error".',
    );
  });

  it("names an unknown option", async () => {
    expect(await startupMessage([toolWith(Budget(100, never({ typo: 1 })))])).toBe(
      "Svc.list: @Budget has an unknown option `typo`. Fix: use only `onExceed`.",
    );
  });

  it("refuses options that are not an object", async () => {
    expect(await startupMessage([toolWith(Budget(100, never("error")))])).toBe(
      'Svc.list: @Budget options must be an object, not "error". Fix: pass { onExceed }.',
    );
  });

  it.each([
    ["0", 0],
    ["NaN", Number.NaN],
    ['"2000"', "2000"],
  ])("refuses the app option budget: %s", async (shown, budget) => {
    @McpService()
    class Svc {
      @Tool() list() {}
    }
    expect(await startupMessage([Svc], { budget: never(budget) })).toBe(
      `McpFactory.create options: \`budget\` must be a positive whole number, not ${shown}. Fix: e.g. budget: 2000.`,
    );
  });
});

describe("start-up checks of @Cached", () => {
  const ttlFix = "Fix: e.g. @Cached({ ttl: 60_000 }).";
  const ruleFix = 'Fix: use an event name, or { event: "articles.changed", match: (input, payload) => … }.';

  it.each([
    ["NaN", Number.NaN],
    ["0", 0],
    ["-5", -5],
    ["Infinity", Number.POSITIVE_INFINITY],
    ['"60000"', "60000"],
  ])("refuses ttl: %s", async (shown, ttl) => {
    expect(await startupMessage([toolWith(Cached({ ttl: never(ttl) }))])).toBe(
      `Svc.list: @Cached \`ttl\` must be a positive, finite number of milliseconds, not ${shown}. ${ttlFix}`,
    );
  });

  it("refuses a missing ttl", async () => {
    const missing = `Svc.list: @Cached \`ttl\` is missing; it must be a positive, finite number of milliseconds. ${ttlFix}`;
    expect(await startupMessage([toolWith(Cached(never({ scope: "global" })))])).toBe(missing);
    expect(await startupMessage([toolWith(Cached(never(undefined)))])).toBe(missing);
  });

  it("refuses an unknown scope", async () => {
    expect(await startupMessage([toolWith(Cached({ ttl: 1000, scope: never("everyone") }))])).toBe(
      'Svc.list: @Cached `scope` must be "owner" or "global", not "everyone". Fix: use "owner" or "global".',
    );
  });

  it("refuses an invalidateOn that is not an array", async () => {
    expect(
      await startupMessage([toolWith(Cached({ ttl: 1000, invalidateOn: never("articles.changed") }))]),
    ).toBe(
      'Svc.list: @Cached `invalidateOn` must be an array, not "articles.changed". Fix: e.g. invalidateOn: ["articles.changed"].',
    );
    expect(await startupMessage([toolWith(Cached({ ttl: 1000, invalidateOn: never(null) }))])).toBe(
      'Svc.list: @Cached `invalidateOn` must be an array, not null. Fix: e.g. invalidateOn: ["articles.changed"].',
    );
  });

  it.each<[string, unknown, string]>([
    ["an empty event name", "", `Svc.list: @Cached \`invalidateOn[1]\` is an empty event name. ${ruleFix}`],
    [
      "a number",
      42,
      `Svc.list: @Cached \`invalidateOn[1]\` must be an event name or { event, match }, not 42. ${ruleFix}`,
    ],
    [
      "an empty event",
      { event: "", match },
      `Svc.list: @Cached \`invalidateOn[1].event\` must be a non-empty event name, not "". ${ruleFix}`,
    ],
    [
      "an event without match",
      { event: "x" },
      'Svc.list: @Cached `invalidateOn[1]` has an `event` but no `match`. Fix: add match: (input, payload) => …, or pass the event name alone ("x").',
    ],
    [
      "a match that is not a function",
      { event: "x", match: "notfn" },
      `Svc.list: @Cached \`invalidateOn[1].match\` must be a function, not "notfn". ${ruleFix}`,
    ],
    [
      "an unknown key",
      { event: "x", match, when: "always" },
      "Svc.list: @Cached `invalidateOn[1]` has an unknown key `when`. Fix: give it only `event` and `match`.",
    ],
    [
      "unknown keys",
      { event: "x", match, when: "always", once: true },
      "Svc.list: @Cached `invalidateOn[1]` has unknown keys `when` and `once`. Fix: give it only `event` and `match`.",
    ],
  ])("refuses an invalidateOn entry that is %s", async (_, rule, message) => {
    const invalidateOn = never<string[]>(["articles.changed", rule]);
    expect(await startupMessage([toolWith(Cached({ ttl: 1000, invalidateOn }))])).toBe(message);
  });

  it("names an unknown option before checking the others", async () => {
    expect(await startupMessage([toolWith(Cached(never({ tll: 1000 })))])).toBe(
      "Svc.list: @Cached has an unknown option `tll`. Fix: use only `ttl`, `invalidateOn` or `scope`.",
    );
  });
});

describe("start-up checks of @Ephemeral", () => {
  it.each<[string, object, string]>([
    [
      "when",
      { when: "sometimes" },
      'Svc.list: @Ephemeral `when` must be "overBudget" or "always", not "sometimes". Fix: use "overBudget" or "always".',
    ],
    [
      "ttl NaN",
      { ttl: Number.NaN },
      "Svc.list: @Ephemeral `ttl` must be a positive, finite number of milliseconds, not NaN. Fix: e.g. @Ephemeral({ ttl: 3_600_000 }).",
    ],
    [
      "ttl 0",
      { ttl: 0 },
      "Svc.list: @Ephemeral `ttl` must be a positive, finite number of milliseconds, not 0. Fix: e.g. @Ephemeral({ ttl: 3_600_000 }).",
    ],
    [
      "scope",
      { scope: "everyone" },
      'Svc.list: @Ephemeral `scope` must be "owner" or "global", not "everyone". Fix: use "owner" or "global".',
    ],
    [
      "preview",
      { preview: "yes" },
      'Svc.list: @Ephemeral `preview` must be true, false or a number of tokens, not "yes". Fix: use preview: false to leave the preview out, a number of tokens to size it, or drop the option for 200.',
    ],
    [
      "mimeType",
      { mimeType: 5 },
      "Svc.list: @Ephemeral `mimeType` must be a string, not 5. Fix: pass a string, or leave `mimeType` out.",
    ],
    [
      "an unknown option",
      { ttl: 1000, expires: 5 },
      "Svc.list: @Ephemeral has an unknown option `expires`. Fix: use only `when`, `ttl`, `mimeType`, `name`, `description`, `scope` or `preview`.",
    ],
  ])("refuses a bad %s", async (_, options, message) => {
    expect(await startupMessage([toolWith(Ephemeral(never(options)))])).toBe(message);
  });

  it("refuses @Ephemeral on a resource and on a prompt", async () => {
    @McpService()
    class OnResource {
      @Resource("config://app")
      @Ephemeral()
      config() {}
    }
    expect(await startupMessage([OnResource])).toBe(
      "OnResource.config: @Ephemeral applies to tools only. Fix: remove @Ephemeral, or make this method a @Tool.",
    );

    @McpService()
    class OnPrompt {
      @Prompt()
      @Ephemeral()
      review() {}
    }
    expect(await startupMessage([OnPrompt])).toBe(
      "OnPrompt.review: @Ephemeral applies to tools only. Fix: remove @Ephemeral, or make this method a @Tool.",
    );
  });
});

describe("start-up checks of @Invalidates", () => {
  it.each([
    ['""', ""],
    ["5", 5],
  ])("refuses @Invalidates(%s)", async (shown, event) => {
    expect(await startupMessage([toolWith(Invalidates("articles.changed", never(event)))])).toBe(
      `Svc.list: @Invalidates takes non-empty event names, not ${shown}. Fix: pass event names, e.g. @Invalidates("articles.changed").`,
    );
  });
});

describe("start-up checks of @Paginated", () => {
  const keyFix = 'Fix: pass a unique field, e.g. @Paginated("id") or @Paginated(["updatedAt", "slug"]).';

  it.each<[string, unknown, object, string]>([
    [
      "an empty key",
      "",
      {},
      `Svc.list: @Paginated needs non-empty field names in its stable key, not "". ${keyFix}`,
    ],
    [
      "no key",
      [],
      {},
      `Svc.list: @Paginated needs a stable key of one field or more, not an empty array. ${keyFix}`,
    ],
    [
      "a key that is not a string",
      5,
      {},
      `Svc.list: @Paginated needs a stable key of one field or more, not 5. ${keyFix}`,
    ],
    [
      "limit 0",
      "id",
      { limit: 0 },
      "Svc.list: @Paginated `limit` must be a positive whole number, not 0. Fix: e.g. limit: 20.",
    ],
    [
      "limit NaN",
      "id",
      { limit: Number.NaN },
      "Svc.list: @Paginated `limit` must be a positive whole number, not NaN. Fix: e.g. limit: 20.",
    ],
    [
      "maxLimit below limit",
      "id",
      { limit: 50, maxLimit: 10 },
      "Svc.list: @Paginated `maxLimit` (10) is below `limit` (50). Fix: raise `maxLimit` to 50 or more, or lower `limit`.",
    ],
    [
      "order",
      "id",
      { order: "up" },
      'Svc.list: @Paginated `order` must be "asc" or "desc", not "up". Fix: use "asc" or "desc".',
    ],
    [
      "empty fields",
      "id",
      { fields: [] },
      "Svc.list: @Paginated `fields` is empty. Fix: list the fields a client may select, or drop the option.",
    ],
    [
      "fields as a string",
      "id",
      { fields: "title" },
      'Svc.list: @Paginated `fields` must be an array of field names, not "title". Fix: e.g. fields: ["title", "slug"].',
    ],
    [
      "defaultFields not in fields",
      "id",
      { fields: ["title"], defaultFields: ["body"] },
      'Svc.list: @Paginated `defaultFields` names "body", which is not in `fields`. Fix: add "body" to `fields`, or remove it from `defaultFields`.',
    ],
    [
      "defaultFields without fields",
      "id",
      { defaultFields: ["body"] },
      "Svc.list: @Paginated has `defaultFields` without `fields`. Fix: add `fields`, listing the fields a client may select.",
    ],
    [
      "stream.window NaN",
      "id",
      { stream: { window: Number.NaN } },
      "Svc.list: @Paginated `stream.window` must be a positive whole number, not NaN. Fix: e.g. stream: { window: 60_000 }.",
    ],
    [
      "an unknown stream option",
      "id",
      { stream: { windw: 60_000 } },
      "Svc.list: @Paginated `stream` has an unknown option `windw`. Fix: use only `window`, `maxBytes`, `graceMs` or `settleMs`.",
    ],
    [
      "adaptive that is not a boolean",
      "id",
      { adaptive: "yes" },
      'Svc.list: @Paginated `adaptive` must be true or false, not "yes". Fix: use adaptive: true to grow the pages of a long walk, or drop the option for fixed pages.',
    ],
    [
      "adaptive with maxLimit equal to limit",
      "id",
      { adaptive: true, limit: 50, maxLimit: 50 },
      "Svc.list: @Paginated `adaptive: true` needs `maxLimit` above `limit` for pages to grow, but `maxLimit` is 50 and `limit` is 50. Fix: raise `maxLimit` (e.g. maxLimit: 200), or drop `adaptive`.",
    ],
    [
      "adaptive with a default maxLimit that leaves no room",
      "id",
      { adaptive: true, limit: 100 },
      "Svc.list: @Paginated `adaptive: true` needs `maxLimit` above `limit` for pages to grow, but `maxLimit` defaults to 100 and `limit` is 100. Fix: raise `maxLimit` (e.g. maxLimit: 400), or drop `adaptive`.",
    ],
    [
      "an unknown option",
      "id",
      { limt: 10 },
      "Svc.list: @Paginated has an unknown option `limt`. Fix: use only `limit`, `maxLimit`, `order`, `fields`, `defaultFields`, `stream`, `as`, `link`, `adaptive`, `text`, `line` or `aggregate`.",
    ],
    [
      "unknown options",
      "id",
      { limt: 10, ordr: "asc" },
      "Svc.list: @Paginated has unknown options `limt` and `ordr`. Fix: use only `limit`, `maxLimit`, `order`, `fields`, `defaultFields`, `stream`, `as`, `link`, `adaptive`, `text`, `line` or `aggregate`.",
    ],
  ])("refuses %s", async (_, key, options, message) => {
    expect(await startupMessage([toolWith(Paginated(never(key), never(options)))])).toBe(message);
  });

  it("checks the options of a paginated resource too", async () => {
    @McpService()
    class Logs {
      @Resource("logs://app")
      @Paginated("seq", never({ limt: 10 }))
      logs() {}
    }
    expect(await startupMessage([Logs])).toBe(
      "Logs.logs: @Paginated has an unknown option `limt`. Fix: use only `limit`, `maxLimit`, `order`, `fields`, `defaultFields`, `stream`, `as`, `link`, `adaptive`, `text`, `line` or `aggregate`.",
    );
  });
});

describe("start-up checks of what a decorator is on", () => {
  it("refuses a decorated field", async () => {
    @McpService()
    class Svc {
      // @ts-expect-error: the compiler already refuses a decorated field; this checks start-up does too
      @Tool() handler = () => 1;
    }
    expect(await startupMessage([Svc])).toBe(
      "Svc.handler: @Tool can only decorate a method, not a field. Fix: turn the field into a method (e.g. `handler() { … }`).",
    );
  });

  it("refuses a decorated getter and setter", async () => {
    @McpService()
    class WithGetter {
      // @ts-expect-error: the compiler already refuses a decorated getter; this checks start-up does too
      @Resource("config://app")
      get config() {
        return {};
      }
    }
    expect(await startupMessage([WithGetter])).toBe(
      "WithGetter.config: @Resource can only decorate a method, not a getter. Fix: turn the getter into a method (e.g. `config() { … }`).",
    );

    @McpService()
    class WithSetter {
      // @ts-expect-error: the compiler already refuses a decorated setter; this checks start-up does too
      @Prompt()
      set review(_value: string) {}
    }
    expect(await startupMessage([WithSetter])).toBe(
      "WithSetter.review: @Prompt can only decorate a method, not a setter. Fix: turn the setter into a method (e.g. `review() { … }`).",
    );
  });

  it("refuses a behaviour decorator on a method that is no tool, resource or prompt", async () => {
    @McpService()
    class One {
      @Cached({ ttl: 1000 }) list() {}
    }
    expect(await startupMessage([One])).toBe(
      "One.list: has @Cached but is not a @Tool, @Resource or @Prompt, so it would do nothing. Fix: add @Tool(), @Resource(uri) or @Prompt() to the method, or remove the decorator.",
    );

    @McpService()
    class Two {
      @Cached({ ttl: 1000 })
      @Budget(100)
      list() {}
    }
    expect(await startupMessage([Two])).toBe(
      "Two.list: has @Budget and @Cached but is not a @Tool, @Resource or @Prompt, so they would do nothing. Fix: add @Tool(), @Resource(uri) or @Prompt() to the method, or remove those decorators.",
    );
  });
});

describe("start-up checks of @Tool, @Resource and @Prompt options", () => {
  it("names an unknown @Tool option", async () => {
    @McpService()
    class Svc {
      @Tool(never<ToolOptions>({ descripton: "Lists things" })) list() {}
    }
    expect(await startupMessage([Svc])).toBe(
      "Svc.list: @Tool has an unknown option `descripton`. Fix: use only `name`, `title`, `description`, `input`, `output`, `inputJsonSchema`, `annotations`, `visibility`, `meta`, `text` or `visibleTo`.",
    );
  });

  it("refuses @Tool options that are not an object", async () => {
    @McpService()
    class Svc {
      @Tool(never<ToolOptions>("list")) list() {}
    }
    expect(await startupMessage([Svc])).toBe(
      'Svc.list: @Tool options must be an object, not "list". Fix: pass { name, title, description, input, output, inputJsonSchema, annotations, visibility, meta, text, visibleTo }.',
    );
  });

  it("names an unknown @Resource option", async () => {
    @McpService()
    class Svc {
      @Resource("config://app", never<ResourceOptions>({ mimetype: "application/json" })) config() {}
    }
    expect(await startupMessage([Svc])).toBe(
      "Svc.config: @Resource has an unknown option `mimetype`. Fix: use only `name`, `title`, `description`, `mimeType`, `input`, `list`, `complete`, `meta` or `visibleTo`.",
    );
  });

  it("names an unknown @Prompt option", async () => {
    @McpService()
    class Svc {
      @Prompt(never<PromptOptions>({ arguments: [] })) review() {}
    }
    expect(await startupMessage([Svc])).toBe(
      "Svc.review: @Prompt has an unknown option `arguments`. Fix: use only `name`, `title`, `description`, `input`, `complete` or `visibleTo`.",
    );
  });

  it("still starts with every known option", async () => {
    @McpService()
    class Svc {
      @Tool({ name: "list", title: "List", description: "d", meta: {}, visibility: ["model"] }) list() {}
      @Resource("config://app", { name: "config", title: "C", description: "d", mimeType: "text/plain" })
      config() {}
      @Prompt({ name: "review", title: "R", description: "d" }) review() {}
    }
    @McpModule({ services: [Svc] })
    class AppModule {}
    const app = await McpFactory.create(AppModule, { name: "t", version: "1" });
    await app.close();
  });
});
