import {
  CLOCK,
  type Clock,
  createTestClient,
  FrugalConfigError,
  Inject,
  Injectable,
  ManualClock,
  McpFactory,
  McpModule,
  McpService,
  Tool,
} from "frugal-mcp";
import { delay } from "tsyringe";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const create = (module: Function, providers: never[] = []) =>
  McpFactory.create(module, { name: "t", version: "1", providers });

async function startupError(module: Function): Promise<FrugalConfigError> {
  const error = await create(module).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FrugalConfigError);
  return error as FrugalConfigError;
}

/** What a class compiled without `emitDecoratorMetadata` (tsx, esbuild) looks like at run time. */
function withoutMetadata<T extends Function>(target: T): T {
  Reflect.deleteMetadata("design:paramtypes", target);
  return target;
}

const PUNCTUATION = Symbol("PUNCTUATION");

@Injectable()
class Repo {
  greeting(name: string) {
    return `hello ${name}`;
  }
}

describe("DI: subclasses inherit their parent's constructor", () => {
  @Injectable()
  class BaseGreeter {
    constructor(
      readonly repo: Repo,
      @Inject(PUNCTUATION) readonly punctuation: string,
      @Inject(CLOCK) readonly clock: Clock,
    ) {}
  }

  @McpService()
  class Greeter extends BaseGreeter {
    @Tool({ input: { name: z.string() } })
    greet({ name }: { name: string }) {
      return `${this.repo.greeting(name)}${this.punctuation} (${this.clock.now()})`;
    }
  }

  /** A provider subclass with neither a constructor nor @Injectable, two levels down. */
  class PlainChild extends BaseGreeter {}
  class PlainGrandChild extends PlainChild {}

  @McpModule({
    services: [Greeter],
    providers: [
      Repo,
      PlainGrandChild,
      { provide: PUNCTUATION, useValue: "!" },
      { provide: CLOCK, useValue: new ManualClock(7) },
    ],
  })
  class GreeterModule {}

  it("builds a service without a constructor of its own with its base's types and @Inject tokens", async () => {
    const t = await createTestClient(GreeterModule);
    const result = await t.client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result.content).toEqual([{ type: "text", text: "hello Ada! (7)" }]);
    await t.close();
  });

  it("builds an undecorated provider subclass with its ancestor's dependencies, not with none", async () => {
    const app = await create(GreeterModule);
    const child = app.get(PlainGrandChild);
    expect(child.repo).toBe(app.get(Repo));
    expect(child.punctuation).toBe("!");
    expect(child.clock.now()).toBe(7);
    await app.close();
  });

  it("refuses a service whose inherited constructor comes from an undecorated base", async () => {
    class UndecoratedBase {
      constructor(readonly repo: Repo) {}
    }
    @McpService()
    class Sub extends UndecoratedBase {
      @Tool() hi() {}
    }
    @McpModule({ services: [Sub], providers: [Repo] })
    class M {}
    expect((await startupError(M)).message).toBe(
      'Sub: constructor parameter #0 "repo" (of UndecoratedBase\'s constructor, which Sub inherits) has no type to inject: decorator metadata is missing, because UndecoratedBase has no class decorator such as @Injectable(), or was compiled without `emitDecoratorMetadata` (tsx and esbuild never emit it). Fix: add @Inject(token) to each constructor parameter of UndecoratedBase (e.g. `@Inject(Repo) repo: Repo`; a string or symbol token works too), which needs no metadata; or decorate UndecoratedBase with @Injectable() and compile it with tsc (`"emitDecoratorMetadata": true`) or swc (`jsc.transform.decoratorMetadata: true`): `frugal-mcp dev` compiles with tsc, and `tsx --import frugal-mcp/register` with swc (`npm install -D @swc/core`).',
    );
  });

  it("refuses an undecorated provider subclass that declares a constructor of its own", async () => {
    class OwnConstructor extends BaseGreeter {
      constructor(repo: Repo, clock: Clock) {
        super(repo, "?", clock);
      }
    }
    @McpModule({ providers: [Repo, OwnConstructor] })
    class M {}
    expect((await startupError(M)).message).toBe(
      'OwnConstructor: constructor parameter #0 "repo" has no type to inject: decorator metadata is missing, because OwnConstructor has no class decorator such as @Injectable(), or was compiled without `emitDecoratorMetadata` (tsx and esbuild never emit it). Fix: add @Inject(token) to each constructor parameter of OwnConstructor (e.g. `@Inject(Repo) repo: Repo`; a string or symbol token works too), which needs no metadata; or decorate OwnConstructor with @Injectable() and compile it with tsc (`"emitDecoratorMetadata": true`) or swc (`jsc.transform.decoratorMetadata: true`): `frugal-mcp dev` compiles with tsc, and `tsx --import frugal-mcp/register` with swc (`npm install -D @swc/core`).',
    );
  });
});

describe("DI: a class no module provides", () => {
  let built = 0;
  @Injectable()
  class Unlisted {
    constructor() {
      built++;
    }
  }

  it("fails at start-up naming the consumer, its parameter and the module to fix, and builds nothing", async () => {
    @McpService()
    class First {
      constructor(readonly dep: Unlisted) {}
      @Tool() first() {}
    }
    @McpService()
    class Second {
      constructor(readonly dep: Unlisted) {}
      @Tool() second() {}
    }
    @McpModule({ services: [First, Second] })
    class FeatureModule {}
    @McpModule({ imports: [FeatureModule] })
    class AppModule {}
    built = 0;
    expect((await startupError(AppModule)).message).toBe(
      'First: constructor parameter #0 "dep" needs Unlisted, which no module provides. Fix: add Unlisted to the `providers` of FeatureModule (the module that lists First); a class is built only when a module provides it, once per app.',
    );
    expect(built).toBe(0);
  });

  it("names the token of an @Inject parameter, a factory's resolve and a useToken alias", async () => {
    @McpService()
    class NeedsDb {
      constructor(@Inject("db") readonly db: unknown) {}
      @Tool() run() {}
    }
    @McpModule({ services: [NeedsDb] })
    class M1 {}
    expect((await startupError(M1)).message).toBe(
      'NeedsDb: constructor parameter #0 "db" needs "db" (its @Inject token), which no module provides. Fix: add { provide: "db", useValue | useClass | useFactory } to the `providers` of M1 (the module that lists NeedsDb).',
    );

    @McpModule({ providers: [{ provide: "cache", useFactory: (c) => c.resolve(Unlisted) }] })
    class M2 {}
    expect((await startupError(M2)).message).toBe(
      '"cache": its factory resolves Unlisted, which no module provides. Fix: add Unlisted to the `providers` of M2 (the module that lists "cache"); a class is built only when a module provides it, once per app.',
    );

    @McpModule({ providers: [{ provide: "alias", useToken: Unlisted }] })
    class M3 {}
    expect((await startupError(M3)).message).toBe(
      '"alias": its useToken names Unlisted, which no module provides. Fix: add Unlisted to the `providers` of M3 (the module that lists "alias"); a class is built only when a module provides it, once per app.',
    );
  });

  it("refuses app.get() of it too", async () => {
    @McpModule({ providers: [Repo] })
    class M {}
    const app = await create(M);
    expect(() => app.get(Unlisted)).toThrow(
      "app.get(Unlisted): no module provides Unlisted. Fix: add Unlisted to the `providers` of a module; a class is built only when a module provides it, once per app.",
    );
    expect(built).toBe(0);
    await app.close();
  });

  it("lets a factory resolve what modules provide: the same singletons", async () => {
    @McpModule({
      providers: [Repo, { provide: "repos", useFactory: (c) => [c.resolve(Repo), c.resolve(Repo)] }],
    })
    class M {}
    const app = await create(M);
    const [a, b] = app.get<Repo[]>("repos");
    expect(a).toBe(app.get(Repo));
    expect(b).toBe(a);
    await app.close();
  });
});

describe("DI: one token provided by two sibling modules", () => {
  const GREETING = Symbol("GREETING");
  @McpModule({ providers: [{ provide: GREETING, useValue: "hi" }, Repo] })
  class LeftModule {}
  @McpModule({ providers: [{ provide: GREETING, useValue: "hello" }, Repo] })
  class RightModule {}

  it("fails at start-up naming both modules and the token, even when the app overrides it", async () => {
    @McpModule({ imports: [LeftModule, RightModule] })
    class AppModule {}
    const message =
      "LeftModule and RightModule: both provide Symbol(GREETING), and neither imports the other, so neither overrides the other. Fix: provide Symbol(GREETING) in only one of them, or also in a module that imports both, such as AppModule (an importer's provider wins).";
    expect((await startupError(AppModule)).message).toBe(message);
    // An app-level override does not hide the conflict: the app without it would not start.
    await expect(
      createTestClient(AppModule, { providers: [{ provide: GREETING, useValue: "test" }] }),
    ).rejects.toThrow(message);
  });

  it("lets the importer settle it, and the app-level providers override that", async () => {
    @McpModule({ imports: [LeftModule, RightModule], providers: [{ provide: GREETING, useValue: "hey" }] })
    class AppModule {}
    const app = await create(AppModule);
    expect(app.get(GREETING)).toBe("hey");
    await app.close();
    const t = await createTestClient(AppModule, { providers: [{ provide: GREETING, useValue: "test" }] });
    expect(t.app.get(GREETING)).toBe("test");
    await t.close();
  });
});

describe("DI: a constructor or factory that throws", () => {
  let thrown: unknown;
  @Injectable()
  class Db {
    constructor() {
      thrown = new Error("connection refused");
      throw thrown;
    }
  }
  @Injectable()
  class ArticlesRepo {
    constructor(readonly db: Db) {}
  }

  it("names the class (and what needed it) and its message, with the original error as cause", async () => {
    @McpModule({ providers: [ArticlesRepo, Db] })
    class M {}
    const error = await startupError(M);
    expect(error.message).toBe(
      "ArticlesRepo → Db: its constructor threw: connection refused. Fix: see this error's `cause` (the original error, with its stack); to start even while a connection fails, do the work that can fail in `ready()`.",
    );
    expect(error.cause).toBe(thrown);
    expect((error.cause as Error).stack).toMatch(/at new Db /);
  });

  it("reports a factory's error and a thrown non-error the same way", async () => {
    const failure = new TypeError("DATABASE_URL is not set");
    @McpModule({
      providers: [
        {
          provide: "db",
          useFactory: () => {
            throw failure;
          },
        },
      ],
    })
    class M1 {}
    const error = await startupError(M1);
    expect(error.message).toBe(
      '"db": its factory threw: DATABASE_URL is not set. Fix: see this error\'s `cause` (the original error, with its stack); to start even while a connection fails, do the work that can fail in `ready()`.',
    );
    expect(error.cause).toBe(failure);

    @Injectable()
    class Grumpy {
      constructor() {
        throw "no";
      }
    }
    @McpModule({ providers: [{ provide: "grumpy", useClass: Grumpy }] })
    class M2 {}
    const second = await startupError(M2);
    expect(second.message).toMatch(/^"grumpy" \(Grumpy\): its constructor threw: no\. Fix: /);
    expect(second.cause).toBe("no");
  });
});

describe("DI without decorator metadata (tsx, esbuild)", () => {
  /** Applies decorators the way esbuild's output does: `__decorateClass`, `__decorateParam`, no metadata. */
  const decorate = {
    method: (target: Function, property: string, decorator: unknown) =>
      (decorator as (t: object, p: string, d: PropertyDescriptor) => void)(
        target.prototype,
        property,
        Object.getOwnPropertyDescriptor(target.prototype, property) as PropertyDescriptor,
      ),
    param: (target: Function, index: number, decorator: unknown) =>
      (decorator as (t: Function, p: undefined, i: number) => void)(target, undefined, index),
    class: (target: Function, decorator: ClassDecorator) => decorator(target),
  };

  it("fails with the fix for a class compiled as esbuild compiles it, and works once it uses @Inject", async () => {
    class EsStore {
      notes = ["first note"];
    }
    decorate.class(EsStore, Injectable() as ClassDecorator);
    class EsNotesService {
      constructor(readonly store: EsStore) {}
      listNotes() {
        return { notes: this.store.notes };
      }
    }
    decorate.method(EsNotesService, "listNotes", Tool());
    decorate.class(EsNotesService, McpService());
    expect(Reflect.getMetadata("design:paramtypes", EsNotesService)).toBeUndefined();
    @McpModule({ services: [EsNotesService], providers: [EsStore] })
    class M1 {}
    expect((await startupError(M1)).message).toBe(
      'EsNotesService: constructor parameter #0 "store" has no type to inject: decorator metadata is missing, because EsNotesService was compiled without `emitDecoratorMetadata` (tsx and esbuild never emit it). Fix: add @Inject(token) to each constructor parameter of EsNotesService (e.g. `@Inject(Repo) repo: Repo`; a string or symbol token works too), which needs no metadata; or compile it with tsc (`"emitDecoratorMetadata": true`) or swc (`jsc.transform.decoratorMetadata: true`): `frugal-mcp dev` compiles with tsc, and `tsx --import frugal-mcp/register` with swc (`npm install -D @swc/core`).',
    );

    class EsInjected {
      constructor(readonly store: EsStore) {}
      countNotes() {
        return { count: this.store.notes.length };
      }
    }
    decorate.method(EsInjected, "countNotes", Tool());
    decorate.param(EsInjected, 0, Inject(EsStore));
    decorate.class(EsInjected, McpService());
    class EsSubclass extends EsInjected {}
    decorate.class(EsSubclass, McpService());
    @McpModule({ services: [EsSubclass], providers: [EsStore] })
    class M2 {}
    const t = await createTestClient(M2);
    expect((await t.client.callTool({ name: "count_notes", arguments: {} })).structuredContent).toEqual({
      count: 1,
    });
    await t.close();
  });

  it("says the metadata is missing and how to fix it", async () => {
    @McpService()
    class NotesService {
      constructor(readonly repo: Repo) {}
      @Tool() list() {}
    }
    withoutMetadata(NotesService);
    @McpModule({ services: [NotesService], providers: [Repo] })
    class M {}
    expect((await startupError(M)).message).toBe(
      'NotesService: constructor parameter #0 "repo" has no type to inject: decorator metadata is missing, because NotesService was compiled without `emitDecoratorMetadata` (tsx and esbuild never emit it). Fix: add @Inject(token) to each constructor parameter of NotesService (e.g. `@Inject(Repo) repo: Repo`; a string or symbol token works too), which needs no metadata; or compile it with tsc (`"emitDecoratorMetadata": true`) or swc (`jsc.transform.decoratorMetadata: true`): `frugal-mcp dev` compiles with tsc, and `tsx --import frugal-mcp/register` with swc (`npm install -D @swc/core`).',
    );
  });

  it("names the one parameter without @Inject", async () => {
    @McpService()
    class Half {
      constructor(
        @Inject(Repo) readonly repo: Repo,
        readonly clock: Clock,
      ) {}
      @Tool() run() {}
    }
    withoutMetadata(Half);
    @McpModule({ services: [Half], providers: [Repo] })
    class M {}
    expect((await startupError(M)).message).toMatch(
      /^Half: constructor parameter #1 "clock" has no type to inject: decorator metadata is missing, because Half was compiled without `emitDecoratorMetadata`/,
    );
  });

  it("builds classes whose every parameter has @Inject, subclasses included", async () => {
    @Injectable()
    class Store {
      constructor(@Inject(CLOCK) readonly clock: Clock) {}
    }
    @McpService()
    class Notes {
      constructor(
        @Inject(Store) readonly store: Store,
        @Inject(PUNCTUATION) readonly punctuation: string,
      ) {}
      @Tool() now() {
        return `${this.store.clock.now()}${this.punctuation}`;
      }
    }
    @McpService()
    class MoreNotes extends Notes {
      @Tool() more() {
        return "more";
      }
    }
    for (const target of [Store, Notes, MoreNotes]) withoutMetadata(target);
    @McpModule({
      services: [MoreNotes],
      providers: [
        Store,
        { provide: PUNCTUATION, useValue: "!" },
        { provide: CLOCK, useValue: new ManualClock(3) },
      ],
    })
    class M {}
    const t = await createTestClient(M);
    expect((await t.client.callTool({ name: "now", arguments: {} })).content).toEqual([
      { type: "text", text: "3!" },
    ]);
    await t.close();
  });
});

describe("DI: other parameters", () => {
  it("refuses a parameter typed as a primitive or an interface, without @Inject", async () => {
    @McpService()
    class A {
      constructor(readonly prefix: string) {}
      @Tool() a() {}
    }
    @McpModule({ services: [A] })
    class M {}
    expect((await startupError(M)).message).toBe(
      'A: constructor parameter #0 "prefix" has the type String, which names no provider (TypeScript records primitives, interfaces and unions as String, Number, Boolean or Object). Fix: inject it by token: `@Inject(TOKEN) prefix`, with { provide: TOKEN, useValue | useFactory } in a module\'s `providers`.',
    );
  });

  it("refuses a type that was undefined when the class was decorated (a circular import)", async () => {
    @McpService()
    class A {
      constructor(readonly repo: Repo) {}
      @Tool() a() {}
    }
    // What tsc records when `Repo` comes from a module still being evaluated.
    Reflect.defineMetadata("design:paramtypes", [undefined], A);
    @McpModule({ services: [A], providers: [Repo] })
    class M {}
    expect((await startupError(M)).message).toBe(
      'A: constructor parameter #0 "repo" has the type `undefined` in its decorator metadata: its class was not defined yet when A was decorated (a circular import). Fix: break the import cycle, or inject by token: `@Inject(TOKEN)` with { provide: TOKEN, useFactory } in a module\'s `providers`.',
    );
  });

  it("leaves a parameter with a default value, or an optional @Inject, to its default", async () => {
    @McpService()
    class A {
      constructor(
        readonly repo: Repo,
        @Inject("retries", { isOptional: true }) readonly retries?: number,
        readonly timeoutMs: number = 500,
      ) {}
      @Tool() a() {}
    }
    @McpModule({ services: [A], providers: [Repo] })
    class M {}
    const app = await create(M);
    expect(app.get(A).repo).toBe(app.get(Repo));
    expect(app.get(A).retries).toBeUndefined();
    expect(app.get(A).timeoutMs).toBe(500);
    await app.close();
  });

  it("refuses a circular dependency, which delay() breaks", async () => {
    @Injectable()
    class Left {
      constructor(@Inject("right") readonly right: unknown) {}
    }
    @McpModule({ providers: [Left, { provide: "right", useFactory: (c) => ({ left: c.resolve(Left) }) }] })
    class M1 {}
    expect((await startupError(M1)).message).toBe(
      'Left → "right" → Left: a circular dependency. Fix: move what both need into a provider of its own, or let one side take the other lazily: `@Inject(delay(() => Other))`, with tsyringe\'s `delay`.',
    );

    @Injectable()
    class Lazy {
      constructor(@Inject(delay(() => Eager)) readonly eager: { name: string }) {}
    }
    @Injectable()
    class Eager {
      readonly name = "eager";
      constructor(readonly lazy: Lazy) {}
    }
    @McpModule({ providers: [Lazy, Eager] })
    class M2 {}
    const app = await create(M2);
    expect(app.get(Lazy).eager.name).toBe("eager");
    expect(app.get(Eager).lazy).toBe(app.get(Lazy));
    await app.close();
  });
});
