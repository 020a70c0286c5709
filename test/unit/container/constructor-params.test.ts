import { describe, expect, it } from "vitest";
import { constructorInfo, hasOwnInjectionTokens } from "../../../src/container/constructor-params.js";
import { inject, injectable } from "../../../src/decorators/tsyringe.js";

const STORAGE = Symbol("STORAGE");
class Database {}

describe("constructorInfo", () => {
  it("reads each parameter's name, recorded type and @Inject token", () => {
    @injectable()
    class Repo {
      constructor(
        readonly db: Database,
        @inject(STORAGE) readonly storage: unknown,
      ) {}
    }
    const info = constructorInfo(Repo);
    expect(info.declaredBy).toBe(Repo);
    expect(info.hasMetadata).toBe(true);
    expect(info.params).toHaveLength(2);
    expect(info.params[0]).toEqual({
      index: 0,
      name: "db",
      injected: undefined,
      type: Database,
      hasDefault: false,
    });
    // (tsyringe's injectable() writes the token over the recorded type: the token is what counts.)
    expect(info.params[1]).toMatchObject({
      index: 1,
      name: "storage",
      injected: { token: STORAGE },
      hasDefault: false,
    });
    expect(hasOwnInjectionTokens(Repo)).toBe(true);
  });

  it("uses the constructor of the nearest parent that declares one", () => {
    @injectable()
    class Base {
      constructor(@inject(STORAGE) readonly storage: unknown) {}
    }
    class Child extends Base {}
    class GrandChild extends Child {}
    const info = constructorInfo(GrandChild);
    expect(info.declaredBy).toBe(Base);
    expect(info.params.map((p) => p.injected?.token)).toEqual([STORAGE]);
    expect(hasOwnInjectionTokens(GrandChild)).toBe(false);
  });

  it("stops at a subclass that declares its own constructor, even without parameters", () => {
    @injectable()
    class Base {
      constructor(readonly db: Database) {}
    }
    class Own extends Base {
      constructor() {
        super(new Database());
      }
    }
    expect(constructorInfo(Own)).toEqual({ declaredBy: Own, hasMetadata: false, params: [] });
  });

  it("says which parameters have a default value, so undefined is acceptable for them", () => {
    @injectable()
    class Paged {
      constructor(
        readonly db: Database,
        readonly limit = 10,
      ) {}
    }
    expect(constructorInfo(Paged).params.map((p) => [p.name, p.hasDefault, p.type])).toEqual([
      ["db", false, Database],
      ["limit", true, Object],
    ]);
  });

  it("without decorator metadata, knows only the parameters before the first default", () => {
    class Plain {
      constructor(
        readonly name: string,
        readonly limit = 10,
      ) {}
    }
    const info = constructorInfo(Plain);
    expect(info.hasMetadata).toBe(false);
    expect(info.params).toEqual([
      { index: 0, name: "name", injected: undefined, type: undefined, hasDefault: false },
    ]);
  });
});
