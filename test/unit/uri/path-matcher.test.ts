import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PathMatcher } from "../../../src/uri/path-matcher.js";

/** The backtracking expression the matcher replaced: the reference for what a match finds. */
function reference(parts: Part[]): RegExp {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const body = parts
    .map((part) =>
      part.kind === "literal" ? escaped(part.text) : part.reserved ? "([^?#]+?)" : "([^/?#,]+)",
    )
    .join("");
  return new RegExp(`^${body}$`);
}

type Part = { kind: "literal"; text: string } | { kind: "value"; reserved: boolean };

function compile(parts: Part[]): PathMatcher {
  const matcher = new PathMatcher();
  for (const part of parts) {
    if (part.kind === "literal") matcher.literal(part.text);
    else matcher.value(part.reserved);
  }
  return matcher;
}

const alphabet = fc.constantFrom("a", "b", ".", "/", ",", "?", "#", "-");
const part: fc.Arbitrary<Part> = fc.oneof(
  fc
    .string({ unit: alphabet, minLength: 1, maxLength: 3 })
    .map((text) => ({ kind: "literal" as const, text })),
  fc.boolean().map((reserved) => ({ kind: "value" as const, reserved })),
);

describe("PathMatcher", () => {
  it("finds what the backtracking expression found (greedy plain values, lazy reserved ones)", () => {
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 6 }),
        fc.string({ unit: alphabet, maxLength: 16 }),
        (parts, path) => {
          const expected = reference(parts).exec(path)?.slice(1);
          expect(compile(parts).match(path)).toEqual(expected);
        },
      ),
      { seed: 13, numRuns: 3000 },
    );
  });

  it("splits ambiguous paths as documented", () => {
    const plain = new PathMatcher().literal("x://").value(false).literal(".").value(false);
    expect(plain.match("x://a.b.c")).toEqual(["a.b", "c"]);
    const reserved = new PathMatcher().literal("x://").value(true).literal("/").value(true);
    expect(reserved.match("x://a/b/c")).toEqual(["a", "b/c"]);
    expect(plain.match("x://a")).toBeUndefined();
    expect(plain.match("x://a.b/c")).toBeUndefined();
  });

  it("answers inputs that made the expression backtrack for minutes (20,000 characters)", () => {
    const dots = new PathMatcher()
      .literal("x://")
      .value(false)
      .literal(".")
      .value(false)
      .literal(".")
      .value(false);
    expect(dots.match(`x://${"a.".repeat(10_000)}/`)).toBeUndefined();
    const reserved = new PathMatcher().literal("d://").value(true).literal("/").value(true);
    expect(reserved.match(`d://${"a/".repeat(10_000)}#`)).toBeUndefined();
    expect(dots.match(`x://${"a.".repeat(10_000)}z`)?.at(-1)).toBe("z");
  });
});
