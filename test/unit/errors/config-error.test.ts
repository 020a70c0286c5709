import { describe, expect, it } from "vitest";
import { FrugalConfigError } from "../../../src/errors/config-error.js";

describe("FrugalConfigError", () => {
  it("names where the declaration is, the problem and the fix in one message", () => {
    const error = new FrugalConfigError("ArticlesService.list", 'tool name "list" is taken', "rename one");
    expect(error.message).toBe('ArticlesService.list: tool name "list" is taken. Fix: rename one.');
    expect(error.where).toBe("ArticlesService.list");
    expect(error.name).toBe("FrugalConfigError");
    expect(error).toBeInstanceOf(Error);
  });

  it("keeps the error that made the declaration fail as its cause", () => {
    const cause = new Error("constructor threw");
    const error = new FrugalConfigError("Repo", "could not be built", "fix its constructor", { cause });
    expect(error.cause).toBe(cause);
  });
});
