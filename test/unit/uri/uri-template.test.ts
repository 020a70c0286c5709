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
