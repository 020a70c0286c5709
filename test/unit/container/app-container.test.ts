import { delay } from "tsyringe";
import { describe, expect, it } from "vitest";
import { createAppContainer } from "../../../src/container/app-container.js";
import { inject, injectable } from "../../../src/decorators/tsyringe.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";

const GREETING = Symbol("GREETING");

@injectable()
class Database {
  static built = 0;
  constructor() {
    Database.built++;
  }
}
@injectable()
class Repo {
  constructor(
    readonly db: Database,
    @inject(GREETING) readonly greeting: string,
  ) {}
}
@injectable()
class Service {
  constructor(readonly repo: Repo) {}
}

/** The FrugalConfigError `build` throws. */
function startupError(build: () => unknown): FrugalConfigError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(FrugalConfigError);
    return error as FrugalConfigError;
  }
  throw new Error("expected a FrugalConfigError");
}

describe("createAppContainer", () => {
  it("builds every provider and service once, dependencies first, with their injected values", () => {
    Database.built = 0;
    const app = createAppContainer([Database, Repo, { provide: GREETING, useValue: "hello" }], [Service]);
    const service = app.resolve(Service);
    expect(service.repo.db).toBe(app.resolve(Database));
    expect(service.repo.greeting).toBe("hello");
    expect(Database.built).toBe(1);
    expect(app.instances).toEqual([app.resolve(Database), "hello", app.resolve(Repo), service]);
    // A factory resolving through the container gets the same singletons.
    expect(app.container.resolve(Repo)).toBe(service.repo);
  });

  it("lets a later provider for a token override an earlier one", () => {
    const app = createAppContainer(
      [
        { provide: GREETING, useValue: "from the imported module" },
        { provide: GREETING, useFactory: () => "from the importing module" },
      ],
      [],
    );
    expect(app.resolve(GREETING)).toBe("from the importing module");
  });

  it("builds useClass, useFactory and useToken providers, factories resolving other providers", () => {
    @injectable()
    class SqlRepo {
      constructor(readonly db: Database) {}
    }
    const app = createAppContainer(
      [
        Database,
        { provide: "repo", useClass: SqlRepo },
        { provide: "alias", useToken: "repo" },
        { provide: "count", useFactory: (c) => (c.resolve("repo") as SqlRepo).db },
      ],
      [],
    );
    expect(app.resolve("repo")).toBeInstanceOf(SqlRepo);
    expect(app.resolve("alias")).toBe(app.resolve("repo"));
    expect(app.resolve("count")).toBe(app.resolve(Database));
  });

  it("refuses a dependency no module provides, naming the parameter, the module and the fix", () => {
    const listedBy = new Map<unknown, Function>([[Repo, class AppModule {}]]);
    const error = startupError(() =>
      createAppContainer([Repo, { provide: GREETING, useValue: "x" }], [], { listedBy }),
    );
    expect(error.message).toBe(
      'Repo: constructor parameter #0 "db" needs Database, which no module provides. Fix: add Database to the `providers` of AppModule (the module that lists Repo); a class is built only when a module provides it, once per app.',
    );
    const byToken = startupError(() => createAppContainer([Database, Repo], []));
    expect(byToken.message).toMatch(
      /^Repo: constructor parameter #1 "greeting" needs Symbol\(GREETING\) \(its @Inject token\), which no module provides\. Fix: add \{ provide: Symbol\(GREETING\), useValue \| useClass \| useFactory \}/,
    );
  });

  it("refuses a parameter typed as an interface or primitive, pointing to @Inject", () => {
    @injectable()
    class Settings {
      constructor(readonly name: string) {}
    }
    expect(startupError(() => createAppContainer([Settings], [])).message).toMatch(
      /^Settings: constructor parameter #0 "name" has the type String, which names no provider .* Fix: inject it by token: `@Inject\(TOKEN\) name`/,
    );
  });

  it("explains missing decorator metadata and how to fix it", () => {
    class Undecorated {
      constructor(readonly db: Database) {}
    }
    const error = startupError(() => createAppContainer([Database, Undecorated], []));
    expect(error.message).toContain(
      'Undecorated: constructor parameter #0 "db" has no type to inject: decorator metadata is missing, because Undecorated has no class decorator such as @Injectable()',
    );
    expect(error.message).toContain("decorate Undecorated with @Injectable()");
  });

  it("names the chain of a circular dependency, and builds one broken with delay()", () => {
    @injectable()
    class A {
      constructor(@inject("b") readonly b: unknown) {}
    }
    @injectable()
    class B {
      constructor(@inject("a") readonly a: unknown) {}
    }
    const error = startupError(() =>
      createAppContainer(
        [
          { provide: "a", useClass: A },
          { provide: "b", useClass: B },
        ],
        [],
      ),
    );
    expect(error.message).toMatch(/^"a" \(A\) → "b" \(B\) → "a" \(A\): a circular dependency\. Fix: /);

    @injectable()
    class Lazy {
      constructor(@inject(delay(() => Database)) readonly db: Database) {}
    }
    const app = createAppContainer([Database, Lazy], []);
    expect(app.resolve(Lazy).db).toBeInstanceOf(Database);
  });

  it("reports a constructor or factory that throws with the original error as cause", () => {
    const boom = new Error("connection refused");
    @injectable()
    class Client {
      constructor() {
        throw boom;
      }
    }
    const error = startupError(() => createAppContainer([Client], []));
    expect(error.message).toMatch(
      /^Client: its constructor threw: connection refused\. Fix: see this error's `cause`/,
    );
    expect(error.cause).toBe(boom);
    const fromFactory = startupError(() =>
      createAppContainer(
        [
          {
            provide: "pool",
            useFactory: () => {
              throw boom;
            },
          },
        ],
        [],
      ),
    );
    expect(fromFactory.message).toMatch(/^"pool": its factory threw: connection refused/);
    expect(fromFactory.cause).toBe(boom);
  });

  it("refuses app.get of a token nothing provides", () => {
    const app = createAppContainer([], []);
    expect(() => app.resolve("missing")).toThrow(
      'app.get("missing"): no module provides "missing". Fix: add { provide: "missing", useValue | useClass | useFactory } to the `providers` of a module.',
    );
  });
});
