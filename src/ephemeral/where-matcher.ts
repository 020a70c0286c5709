import { QueryError } from "../aggregate/query-errors.js";
import { fieldOf, isObject, itemAt } from "../common/guards.js";
import { type CheckedWhere, INTERNAL_NOR, INTERNAL_REGEX, type WherePattern } from "./query-where.js";
import { loadRe2 } from "./search-resource.js";

/** A compiled `where`: true when an item matches. */
export type ItemMatcher = (item: unknown) => boolean;

type Mingo = {
  Query: typeof import("mingo/query").Query;
  Context: typeof import("mingo/core").Context;
  ops: typeof import("mingo/operators/query");
  util: typeof import("mingo/util");
};
// mingo runs an operator's predicate on the documents it tests, objects only (see `compileWhere`).
type QueryOperator = (
  selector: string,
  value: unknown,
  options: unknown,
) => (item: Record<string, unknown>) => boolean;

let mingo: Promise<Mingo> | undefined;

/** mingo, loaded on the first query (apps that never query never load it). */
function loadMingo(): Promise<Mingo> {
  mingo ??= Promise.all([
    import("mingo/query"),
    import("mingo/core"),
    import("mingo/operators/query"),
    import("mingo/util"),
  ]).then(
    ([query, core, ops, util]) => ({ Query: query.Query, Context: core.Context, ops, util }),
    (error: unknown) => {
      mingo = undefined;
      throw error;
    },
  );
  return mingo;
}

/**
 * Compiles a checked `where` into a matcher on mingo, MongoDB's query language for
 * in-memory objects (path resolution through arrays, equality, typed comparisons and the
 * logical operators, as MongoDB defines them).
 *
 * Why mingo, and why it is safe here: mingo takes its operators from a context, and the
 * context built here holds only the contract's operators (`$eq $ne $gt $gte $lt $lte
 * $exists $and $or $not`, plus `$nor` for a top-level `$not`), so `$where`, `$expr`,
 * `$function` and every other operator are unknown to it, and scripting is off as well.
 * `checkWhere` refuses anything else first, with a clearer message. Two operators are our
 * own: `$regex` runs on RE2 (mingo's runs JavaScript's backtracking engine: `(a+)+$`
 * would hang the server), and `$in`/`$nin` match through a hash set (mingo's costs the
 * list's length on every item).
 */
export async function compileWhere(where: CheckedWhere): Promise<ItemMatcher> {
  if (Object.keys(where.condition).length === 0) return () => true;
  const [{ Query, Context, ops, util }, regexes] = await Promise.all([
    loadMingo(),
    compilePatterns(where.patterns),
  ]);
  const membership =
    (negate: boolean): QueryOperator =>
    (selector, value) => {
      const within = membershipTest(value as unknown[], util.isEqual);
      return (item) => within(util.resolve(item, selector, { unwrapArray: true })) !== negate;
    };
  const regex: QueryOperator = (selector, index) => {
    const matches = itemAt(regexes, Number(index));
    const test = (text: unknown) => typeof text === "string" && matches(text);
    return (item) => {
      const value = util.resolve(item, selector, { unwrapArray: true });
      return Array.isArray(value) ? value.flat(Number.POSITIVE_INFINITY).some(test) : test(value);
    };
  };
  const query: Record<string, unknown> = {
    $eq: ops.$eq,
    $ne: ops.$ne,
    $gt: ops.$gt,
    $gte: ops.$gte,
    $lt: ops.$lt,
    $lte: ops.$lte,
    $exists: ops.$exists,
    $and: ops.$and,
    $or: ops.$or,
    $not: ops.$not,
    [INTERNAL_NOR]: ops.$nor,
    $in: membership(false),
    $nin: membership(true),
    [INTERNAL_REGEX]: regex,
  };
  const context = Context.init({ query: query as never });
  const compiled = new Query(where.condition, { context, scriptEnabled: false });
  // Conditions name fields: an item that is not an object (a string in an array of strings)
  // has none, so it never matches (mingo would compare the string itself with any field).
  return (item) => isObject(item) && !Array.isArray(item) && compiled.test(item);
}

/** A compiled `$regex`: true when a string matches. */
type TextTest = (text: string) => boolean;

/** Characters with a meaning in a pattern; escaped, they stand for themselves. */
const SPECIAL = ".\\/-$^*+?()[]{}|";

/**
 * A pattern that is literal text, perhaps anchored and with escaped specials (`timeout`,
 * `^Fix`, `\.md$`: the common case), is matched with string methods: the same answer as
 * RE2 without a call into WebAssembly per item (about 3 µs), which made such scans twice
 * as slow. Any other pattern (a class, a quantifier, an escape like `\d`) runs on RE2.
 */
function literalTest(pattern: string, ignoreCase: boolean): TextTest | undefined {
  let inner = pattern;
  const start = inner.startsWith("^");
  if (start) inner = inner.slice(1);
  const end = inner.endsWith("$") && !inner.endsWith("\\$");
  if (end) inner = inner.slice(0, -1);
  let body = "";
  for (let i = 0; i < inner.length; i++) {
    const char = itemAt(inner, i);
    if (char === "\\") {
      const next = inner[i + 1];
      if (next === undefined || !SPECIAL.includes(next)) return undefined;
      body += next;
      i++;
    } else if (SPECIAL.includes(char) && char !== "/" && char !== "-") {
      return undefined;
    } else {
      body += char;
    }
  }
  const needle = ignoreCase ? body.toLowerCase() : body;
  const fold = ignoreCase ? (text: string) => text.toLowerCase() : (text: string) => text;
  if (start && end) return (text) => fold(text) === needle;
  if (start) return (text) => fold(text).startsWith(needle);
  if (end) return (text) => fold(text).endsWith(needle);
  return (text) => fold(text).includes(needle);
}

async function compilePatterns(patterns: readonly WherePattern[]): Promise<TextTest[]> {
  const literals = patterns.map(({ pattern, ignoreCase }) => literalTest(pattern, ignoreCase));
  // RE2 loads only for a pattern that needs it.
  const Re2 = literals.every((test) => test !== undefined) ? undefined : await loadRe2();
  return patterns.map(({ part, pattern, ignoreCase }, i) => {
    const literal = literals[i];
    if (literal || !Re2) return literal as TextTest;
    try {
      const expression = new Re2(pattern, ignoreCase ? "iu" : "u");
      return (text: string) => {
        expression.lastIndex = 0;
        return expression.test(text);
      };
    } catch (error) {
      throw new QueryError(
        part,
        `${fieldOf(error, "message")} (RE2 syntax, which runs in linear time: no lookarounds or backreferences)`,
      );
    }
  });
}

/**
 * `$in` as MongoDB means it: a missing or null field matches a listed `null`; an array
 * field matches when the whole array or any element is listed. Strings, numbers and
 * booleans are looked up in a set; objects and arrays in the list are compared one by one.
 */
function membershipTest(list: readonly unknown[], isEqual: (a: unknown, b: unknown) => boolean) {
  const primitives = new Set<unknown>();
  const structured: unknown[] = [];
  for (const value of list) {
    if (typeof value === "object" && value !== null) structured.push(value);
    else primitives.add(value);
  }
  const listed = (value: unknown) =>
    typeof value === "object" && value !== null
      ? structured.some((candidate) => isEqual(candidate, value))
      : primitives.has(value);
  return (value: unknown): boolean => {
    if (value === undefined || value === null) return primitives.has(null);
    if (!Array.isArray(value)) return listed(value);
    return listed(value) || value.flat(Number.POSITIVE_INFINITY).some(listed);
  };
}
