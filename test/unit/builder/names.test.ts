import { describe, expect, it } from "vitest";
import { isValidToolName, toSnakeCase } from "../../../src/builder/names.js";

describe("toSnakeCase", () => {
  it("turns method names into tool names", () => {
    expect(toSnakeCase("listArticles")).toBe("list_articles");
    expect(toSnakeCase("getHTTPStatus")).toBe("get_http_status");
    expect(toSnakeCase("HTTPServer")).toBe("http_server");
    expect(toSnakeCase("version2Info")).toBe("version2_info");
    expect(toSnakeCase("already_snake")).toBe("already_snake");
    expect(toSnakeCase("with-dash and space")).toBe("with_dash_and_space");
  });
});

describe("isValidToolName", () => {
  it("follows the specification: 1 to 128 of letters, digits, _ - .", () => {
    expect(isValidToolName("list_articles")).toBe(true);
    expect(isValidToolName("github.search-issues")).toBe(true);
    expect(isValidToolName("x".repeat(128))).toBe(true);
    expect(isValidToolName("x".repeat(129))).toBe(false);
    expect(isValidToolName("")).toBe(false);
    expect(isValidToolName("list articles")).toBe(false);
    expect(isValidToolName("list/articles")).toBe(false);
    expect(isValidToolName("résumé")).toBe(false);
  });
});
