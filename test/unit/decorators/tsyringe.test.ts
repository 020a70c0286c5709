import { describe, expect, it } from "vitest";
import { container, inject, injectable } from "../../../src/decorators/tsyringe.js";

const GREETING = Symbol("GREETING");

class Database {
  readonly name = "db";
}

describe("tsyringe bridge", () => {
  it("injectable() lets a child of the global container build a class with its dependencies", () => {
    @injectable()
    class ArticlesRepo {
      constructor(
        readonly db: Database,
        @inject(GREETING) readonly greeting: string,
      ) {}
    }
    const child = container.createChildContainer();
    child.register(GREETING, { useValue: "hello" });
    const repo = child.resolve(ArticlesRepo);
    expect(repo.db).toBeInstanceOf(Database);
    expect(repo.greeting).toBe("hello");
  });

  it("injectable() accepts an abstract base, whose parameter types an injectable subclass inherits", () => {
    @injectable()
    abstract class LogSource {
      constructor(readonly db: Database) {}
    }
    // No constructor of its own: its parameter types are the base's.
    @injectable()
    class FileLogs extends LogSource {}
    const logs = container.createChildContainer().resolve(FileLogs);
    expect(logs.db).toBeInstanceOf(Database);
  });
});
