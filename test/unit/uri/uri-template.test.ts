import { describe, expect, it } from "vitest";
import { UriTemplate } from "../../../src/uri/uri-template.js";

describe("UriTemplate", () => {
  it("matches simple path variables and decodes them once", () => {
    const t = new UriTemplate("files://{dir}/{name}");
    expect(t.variables).toEqual(["dir", "name"]);
    expect(t.match("files://docs/read%20me.md")).toEqual({ dir: "docs", name: "read me.md" });
    expect(t.match("files://docs%2F..%2Fetc/passwd")).toEqual({ dir: "docs/../etc", name: "passwd" });
    expect(t.match("files://docs")).toBeUndefined();
    expect(t.match("files://a/b/c")).toBeUndefined();
    expect(t.match("other://a/b")).toBeUndefined();
    expect(t.match("files://a/%E0%A4%A")).toBeUndefined();
  });

  it("treats query variables as optional and unordered", () => {
    const t = new UriTemplate("logs://{app}{?since,limit}");
    expect(t.queryVariables).toEqual(["since", "limit"]);
    expect(t.match("logs://api")).toEqual({ app: "api" });
    expect(t.match("logs://api?limit=5")).toEqual({ app: "api", limit: "5" });
    expect(t.match("logs://api?limit=5&since=2026-01-01T00%3A00")).toEqual({
      app: "api",
      limit: "5",
      since: "2026-01-01T00:00",
    });
    expect(t.match("logs://api?other=1")).toBeUndefined();
    expect(t.match("logs://api?limit=1&limit=2")).toBeUndefined();
  });

  it("supports reserved expansion and path-segment operators", () => {
    expect(new UriTemplate("repo://{+path}").match("repo://src/a/b.ts")).toEqual({ path: "src/a/b.ts" });
    expect(new UriTemplate("x://root{/a,b}").match("x://root/one/two")).toEqual({ a: "one", b: "two" });
  });

  it("expands variables back into a URI", () => {
    const t = new UriTemplate("logs://{app}{?since,limit}");
    expect(t.expand({ app: "my app", limit: 5 })).toBe("logs://my%20app?limit=5");
    expect(t.match(t.expand({ app: "a/b", since: "x y" }))).toEqual({ app: "a/b", since: "x y" });
  });

  it("rejects malformed templates", () => {
    expect(() => new UriTemplate("x://{a b}")).toThrow(/invalid expression/);
    expect(() => new UriTemplate("x://{a}}")).toThrow(/unbalanced/);
  });
});

describe("UriTemplate: a fixed query continued by {&var} (RFC 6570)", () => {
  it("expands {&var} after a literal query with & and never a second ?", () => {
    const t = new UriTemplate("x://s?fixed=1{&c}");
    expect(t.expand({ c: 2 })).toBe("x://s?fixed=1&c=2");
    expect(t.expand({})).toBe("x://s?fixed=1");
    expect(new UriTemplate("x://s?fixed=1{&c,d}").expand({ c: "a b", d: 3 })).toBe(
      "x://s?fixed=1&c=a%20b&d=3",
    );
    // {?var} after a literal query continues it too, rather than writing a second "?".
    expect(new UriTemplate("x://s?fixed=1{?c}").expand({ c: 2 })).toBe("x://s?fixed=1&c=2");
    // Without a literal query, the first pair starts it, whichever operator it is written with.
    expect(new UriTemplate("x://{a}{?b}{&c}").expand({ a: "1", c: 3 })).toBe("x://1?c=3");
    expect(new UriTemplate("x://{a}{?b}{&c}").expand({ a: "1", b: 2, c: 3 })).toBe("x://1?b=2&c=3");
  });

  it("matches the fixed pair as required and exact, and the variables as optional, in any order", () => {
    const t = new UriTemplate("x://s?fixed=1{&c}");
    expect(t.variables).toEqual(["c"]);
    expect(t.queryVariables).toEqual(["c"]);
    expect(t.match("x://s?fixed=1&c=2")).toEqual({ c: "2" });
    expect(t.match("x://s?c=2&fixed=1")).toEqual({ c: "2" });
    expect(t.match("x://s?fixed=1")).toEqual({});
    expect(t.match(t.expand({ c: "a&b" }))).toEqual({ c: "a&b" });
    expect(t.match("x://s?c=2")).toBeUndefined();
    expect(t.match("x://s?fixed=2&c=2")).toBeUndefined();
    expect(t.match("x://s?fixed=1&fixed=1")).toBeUndefined();
    expect(t.match("x://s?fixed=1&other=1")).toBeUndefined();
    expect(t.match("x://s?fixed=1?c=2")).toBeUndefined();
    expect(t.match("x://s")).toBeUndefined();
  });

  it("keeps path variables before the literal query", () => {
    const t = new UriTemplate("logs://{app}/tail?format=json&v=2{&since,limit}");
    expect(t.variables).toEqual(["app", "since", "limit"]);
    expect(t.match("logs://api/tail?v=2&limit=5&format=json")).toEqual({ app: "api", limit: "5" });
    expect(t.expand({ app: "api", since: "t1" })).toBe("logs://api/tail?format=json&v=2&since=t1");
  });

  it("refuses a path expression inside the query and a query pair that is also a variable", () => {
    expect(() => new UriTemplate("x://s?q={term}{&c}")).toThrow(
      'expression "{term}" is inside the query of URI template "x://s?q={term}{&c}"; write query variables as {?var} or {&var}',
    );
    expect(() => new UriTemplate("x://s?c=1{&c}")).toThrow(
      'invalid or repeated query parameter "c=1" in URI template "x://s?c=1{&c}"',
    );
    // Without query variables a literal query is matched as written, as before.
    expect(new UriTemplate("x://s?q={term}").match("x://s?q=abc")).toEqual({ term: "abc" });
  });
});
