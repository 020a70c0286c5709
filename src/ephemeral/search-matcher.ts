import type { RE2 } from "re2-wasm";
import { fieldOf } from "../common/guards.js";
import { requirePackage } from "../common/require-package.js";

/** A pattern the search cannot use; the message says why. */
export class PatternError extends Error {}

/** What a search looks for: literal text by default; `regex` uses RE2, which runs in linear time. */
export interface PatternOptions {
  pattern: string;
  regex?: boolean | undefined;
  ignoreCase?: boolean | undefined;
}

/** One occurrence of the pattern in a text: where it starts and how long it is (UTF-16 units). */
export interface Occurrence {
  readonly offset: number;
  readonly length: number;
}

/** A compiled pattern: whether a text holds it, and where. */
export interface SearchMatcher {
  test(text: string): boolean;
  /** Every occurrence in `text`, in order, at most `max`. */
  find(text: string, max: number): Occurrence[];
}

let re2: Promise<typeof RE2> | undefined;

/**
 * RE2, loaded on the first regular-expression search (importing it costs about 20–40 ms of
 * start-up). By `require`, not `import()`: a bundler follows an `import()` and copies re2-wasm
 * into the user's bundle, where it no longer finds its `.wasm` file (it looks beside itself);
 * required, it stays in node_modules, whole.
 */
export function loadRe2(): Promise<typeof RE2> {
  re2 ??= Promise.resolve()
    .then(() => (requirePackage("re2-wasm") as typeof import("re2-wasm")).RE2)
    .catch((error: unknown) => {
      re2 = undefined;
      throw error;
    });
  return re2;
}

/** Compiles a pattern; throws a `PatternError` saying what is wrong with it. */
export async function searchMatcher(options: PatternOptions): Promise<SearchMatcher> {
  if (options.pattern.length === 0)
    throw new PatternError("the pattern is empty; give some text to look for");
  if (options.regex) {
    const Re2 = await loadRe2();
    let expression: RE2;
    try {
      expression = new Re2(options.pattern, options.ignoreCase ? "giu" : "gu");
    } catch (error) {
      throw new PatternError(`${fieldOf(error, "message")} (RE2 syntax: no lookarounds or backreferences)`);
    }
    return {
      test: (text) => {
        expression.lastIndex = 0;
        return expression.test(text);
      },
      find: (text, max) => inUtf16(text, findAll(expression, text, max)),
    };
  }
  const { pattern } = options;
  if (options.ignoreCase) {
    const needle = pattern.toLowerCase();
    // A literal regular expression (escaped): linear, and its offsets are those of the text itself.
    const expression = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "giu");
    return {
      test: (text) => text.toLowerCase().includes(needle),
      find: (text, max) => findAll(expression, text, max),
    };
  }
  return {
    test: (text) => text.includes(pattern),
    find: (text, max) => {
      const found: Occurrence[] = [];
      for (
        let at = text.indexOf(pattern);
        at !== -1 && found.length < max;
        at = text.indexOf(pattern, at + 1)
      )
        found.push({ offset: at, length: pattern.length });
      return found;
    },
  };
}

/** Every match of a global expression (an empty match steps one character on, never loops). */
function findAll(expression: RegExp | RE2, text: string, max: number): Occurrence[] {
  const found: Occurrence[] = [];
  expression.lastIndex = 0;
  while (found.length < max) {
    const match = expression.exec(text);
    if (!match) break;
    const length = (match[0] ?? "").length;
    found.push({ offset: match.index, length });
    if (length === 0) expression.lastIndex = match.index + 1;
    if (expression.lastIndex > text.length) break;
  }
  return found;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * RE2's indexes count code points, the rest of the framework UTF-16 units (as JavaScript
 * strings do): the offsets moved to UTF-16, in one pass since they come in order.
 */
function inUtf16(text: string, found: Occurrence[]): Occurrence[] {
  if (found.length === 0 || !SURROGATE.test(text)) return found;
  let points = 0;
  let units = 0;
  const unitsAt = (point: number) => {
    while (points < point && units < text.length) {
      const code = text.charCodeAt(units);
      units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
      points++;
    }
    return units;
  };
  // The match's own length is already in UTF-16 units (it is a JavaScript string).
  return found.map(({ offset, length }) => ({ offset: unitsAt(offset), length }));
}
