import { describe, expect, it } from "vitest";
import {
  paramHeaderMismatch,
  paramHeadersOf,
} from "../../../../src/protocol/registrar-2026/param-headers.js";

const schema = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    shard: { type: "integer", "x-mcp-header": "Shard" },
    options: { type: "object", properties: { dryRun: { type: "boolean", "x-mcp-header": "Dry-Run" } } },
    note: { type: "string" },
  },
};
const declared = paramHeadersOf(schema);
const b64 = (text: string) => `=?base64?${Buffer.from(text).toString("base64")}?=`;

describe("paramHeadersOf", () => {
  it("finds every header declared on a property reached through properties, with its path and type", () => {
    expect(declared).toEqual([
      { header: "Region", path: ["region"], type: "string" },
      { header: "Shard", path: ["shard"], type: "integer" },
      { header: "Dry-Run", path: ["options", "dryRun"], type: "boolean" },
    ]);
  });

  it("refuses declarations a client could not follow, naming the property", () => {
    const at = (property: unknown) => () => paramHeadersOf({ type: "object", properties: { p: property } });
    expect(at({ type: "string", "x-mcp-header": "Bad Header" })).toThrow(
      'property "p": x-mcp-header must be an HTTP token (letters, digits, "-"), got "Bad Header"',
    );
    expect(at({ type: "object", "x-mcp-header": "P" })).toThrow(
      /only on a string, integer or boolean property/,
    );
    expect(at({ type: "array", items: { type: "string", "x-mcp-header": "Item" } })).toThrow(
      'property "p.<items>": x-mcp-header is allowed only on properties reached through "properties"',
    );
    expect(() => paramHeadersOf({ type: "string", "x-mcp-header": "Root" })).toThrow(
      /the input schema itself/,
    );
    expect(() =>
      paramHeadersOf({
        type: "object",
        properties: {
          a: { type: "string", "x-mcp-header": "Id" },
          b: { type: "string", "x-mcp-header": "id" },
        },
      }),
    ).toThrow('property "b": x-mcp-header "id" is already declared by "a"');
  });
});

describe("paramHeaderMismatch", () => {
  const args = { region: "eu-west", shard: 12, options: { dryRun: true } };

  it("accepts headers that carry the body's values, plain or as Base64 of UTF-8", () => {
    const headers = { "mcp-param-region": "eu-west", "mcp-param-shard": "12.0", "mcp-param-dry-run": "true" };
    expect(paramHeaderMismatch(declared, args, headers)).toBeUndefined();
    expect(
      paramHeaderMismatch(declared, { region: "zürich" }, { "mcp-param-region": b64("zürich") }),
    ).toBeUndefined();
    // A value the body does not carry needs no header.
    expect(paramHeaderMismatch(declared, { note: "x" }, {})).toBeUndefined();
  });

  it("names the header that is absent, differs, or is not canonical Base64", () => {
    expect(
      paramHeaderMismatch(declared, args, { "mcp-param-shard": "12", "mcp-param-dry-run": "true" }),
    ).toEqual({
      header: "Mcp-Param-Region",
      problem: 'the body carries arguments.region="eu-west" but the Mcp-Param-Region header is absent',
    });
    expect(paramHeaderMismatch(declared, { shard: 12 }, { "mcp-param-shard": "13" })).toEqual({
      header: "Mcp-Param-Shard",
      problem: 'the Mcp-Param-Shard header is "13" but the body carries arguments.shard=12',
    });
    expect(paramHeaderMismatch(declared, { region: "a" }, { "mcp-param-region": "=?base64?YQ?=" })).toEqual({
      header: "Mcp-Param-Region",
      problem: "the Mcp-Param-Region header is not canonical Base64 of UTF-8 text inside =?base64?…?=",
    });
    expect(
      paramHeaderMismatch(declared, { region: "a" }, { "mcp-param-region": "=?base64?/w==?=" })?.problem,
    ).toMatch(/not canonical Base64 of UTF-8/);
  });
});
