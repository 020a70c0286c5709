import { PathMatcher } from "./path-matcher.js";

/**
 * An RFC 6570 URI template (the subset MCP servers use: `{var}`, `{+var}`, `{#var}`,
 * `{/var}`, `{.var}`, `{?a,b}` and `{&c}`), matched against concrete URIs.
 *
 * Why not the SDK's `UriTemplate.match`: it returns null when a query variable is missing
 * or when query variables come in another order, and leaves `%2F` encoded. Here query
 * variables are optional and unordered, and every value is percent-decoded exactly once.
 * A query written in the template itself (`x://s?fixed=1{&c}`) is required as written, in
 * any order among the variables, and `{&c}` continues it. Values are data, never paths:
 * never build a file path from them. Matching takes time linear in the URI's length, whatever
 * the URI (`PathMatcher`): no backtracking on hostile input.
 *
 * @example
 * ```ts
 * const t = new UriTemplate("logs://{app}{?since,limit}");
 * t.match("logs://api?limit=5"); // { app: "api", limit: "5" }
 * ```
 */
export class UriTemplate {
  /** Every variable name, in template order. */
  readonly variables: readonly string[];
  /** Variables that come from the query string (optional by nature). */
  readonly queryVariables: readonly string[];
  private readonly segments: readonly Segment[];
  private readonly path: PathMatcher;
  private readonly pathVariables: readonly string[];
  /** `name=value` pairs written in the template's own query (`x://s?fixed=1{&c}`): required, exact. */
  private readonly fixedQuery: ReadonlyMap<string, string>;

  constructor(readonly template: string) {
    const segments = parseSegments(template);
    const hasQueryVariables = segments.some((s) => s.kind === "expression" && isQueryOperator(s.operator));
    const pathVariables: string[] = [];
    const queryVariables: string[] = [];
    const fixedQuery = new Map<string, string>();
    const path = new PathMatcher();
    // With query variables, the URI's query is matched as pairs, in any order; the template's
    // own query (after a literal "?") holds fixed pairs, which `{&var}` continues (RFC 6570).
    let literalQuery: string | undefined;
    for (const segment of segments) {
      if (segment.kind === "literal") {
        if (literalQuery !== undefined) literalQuery += segment.text;
        else if (hasQueryVariables && segment.text.includes("?")) {
          const at = segment.text.indexOf("?");
          path.literal(segment.text.slice(0, at));
          literalQuery = segment.text.slice(at + 1);
        } else path.literal(segment.text);
      } else if (isQueryOperator(segment.operator)) {
        queryVariables.push(...segment.names);
      } else if (literalQuery !== undefined) {
        throw new Error(
          `expression "{${segment.body}}" is inside the query of URI template "${template}"; write query variables as {?var} or {&var}`,
        );
      } else {
        pathVariables.push(...segment.names);
        addExpression(path, segment.operator, segment.names.length);
      }
    }
    for (const pair of (literalQuery ?? "").split("&")) {
      if (!pair) continue;
      const eq = pair.indexOf("=");
      const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
      const value = safeDecode(eq < 0 ? "" : pair.slice(eq + 1).replace(/\+/g, " "));
      if (
        name === undefined ||
        value === undefined ||
        fixedQuery.has(name) ||
        queryVariables.includes(name)
      ) {
        throw new Error(`invalid or repeated query parameter "${pair}" in URI template "${template}"`);
      }
      fixedQuery.set(name, value);
    }
    this.segments = segments;
    this.path = path;
    this.pathVariables = pathVariables;
    this.queryVariables = queryVariables;
    this.fixedQuery = fixedQuery;
    this.variables = [...pathVariables, ...queryVariables];
  }

  /** True when the string holds at least one `{…}` expression. */
  static isTemplate(uri: string): boolean {
    return /\{[^{}]+\}/.test(uri);
  }

  /** The variables of `uri`, or `undefined` when it does not match this template. */
  match(uri: string): Record<string, string> | undefined {
    let path = uri;
    let query = "";
    if (this.queryVariables.length > 0) {
      const at = uri.indexOf("?");
      if (at >= 0) {
        path = uri.slice(0, at);
        query = uri.slice(at + 1);
      }
    }
    const found = this.path.match(path);
    if (!found) return undefined;
    const values: Record<string, string> = {};
    let group = 0;
    for (const name of this.pathVariables) {
      const raw = found[group++];
      if (raw === undefined) return undefined;
      const decoded = safeDecode(raw);
      if (decoded === undefined) return undefined;
      values[name] = decoded;
    }
    const fixedSeen = new Set<string>();
    for (const pair of query.split("&")) {
      if (!pair) continue;
      const eq = pair.indexOf("=");
      const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
      const value = safeDecode(eq < 0 ? "" : pair.slice(eq + 1).replace(/\+/g, " "));
      if (name === undefined || value === undefined) return undefined;
      const fixed = this.fixedQuery.get(name);
      if (fixed !== undefined) {
        // The template's own pairs must be there exactly, once.
        if (value !== fixed || fixedSeen.has(name)) return undefined;
        fixedSeen.add(name);
        continue;
      }
      // An unknown or repeated query parameter is a different resource, not a silent drop.
      if (!this.queryVariables.includes(name) || Object.hasOwn(values, name)) return undefined;
      values[name] = value;
    }
    if (fixedSeen.size !== this.fixedQuery.size) return undefined;
    return values;
  }

  /**
   * Builds a concrete URI; query variables that are `undefined` are left out. The first
   * query pair starts the query with `?`, every later one (and any after a literal `?` in
   * the template, as `{&var}` does) continues it with `&`.
   */
  expand(values: Record<string, string | number | undefined>): string {
    let uri = "";
    let inQuery = false;
    for (const segment of this.segments) {
      if (segment.kind === "literal") {
        uri += segment.text;
        if (segment.text.includes("?")) inQuery = true;
      } else if (isQueryOperator(segment.operator)) {
        for (const name of segment.names) {
          const value = values[name];
          if (value === undefined) continue;
          uri += `${inQuery ? "&" : "?"}${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
          inQuery = true;
        }
      } else {
        const { operator } = segment;
        const encoded = segment.names.map((name) => {
          const value = String(values[name] ?? "");
          return operator === "+" || operator === "#" ? encodeURI(value) : encodeURIComponent(value);
        });
        uri += (operator === "+" ? "" : operator) + encoded.join(",");
      }
    }
    return uri;
  }
}

type Segment =
  | { readonly kind: "literal"; readonly text: string }
  | {
      readonly kind: "expression";
      readonly body: string;
      readonly operator: string;
      readonly names: string[];
    };

/** Splits a template into literal text and `{…}` expressions, checking every expression. */
function parseSegments(template: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const expression of template.matchAll(/\{([^{}]*)\}/g)) {
    if (expression.index > last)
      segments.push({ kind: "literal", text: template.slice(last, expression.index) });
    last = expression.index + expression[0].length;
    const body = expression[1] ?? "";
    const operator = /^[+#/.?&]/.test(body) ? (body[0] ?? "") : "";
    const names = body
      .slice(operator.length)
      .split(",")
      .map((n) => n.trim().replace(/\*$|:\d+$/, ""));
    if (names.some((n) => !/^[A-Za-z0-9_]+$/.test(n))) {
      throw new Error(`invalid expression "{${body}}" in URI template "${template}"`);
    }
    segments.push({ kind: "expression", body, operator, names });
  }
  const rest = template.slice(last);
  if (rest.includes("{") || rest.includes("}")) {
    throw new Error(`unbalanced braces in URI template "${template}"`);
  }
  if (rest) segments.push({ kind: "literal", text: rest });
  return segments;
}

function isQueryOperator(operator: string): boolean {
  return operator === "?" || operator === "&";
}

/** An expression's values: `{/a,b}` is `/` then a value, `/`, a value; `{+a}` reserved values. */
function addExpression(path: PathMatcher, operator: string, count: number): void {
  const reserved = operator === "+" || operator === "#";
  const separator = reserved || operator === "" ? "," : operator;
  if (operator !== "+" && operator !== "") path.literal(operator);
  for (let i = 0; i < count; i++) {
    if (i > 0) path.literal(separator);
    path.value(reserved);
  }
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
