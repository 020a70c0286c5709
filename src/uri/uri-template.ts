/**
 * An RFC 6570 URI template (the subset MCP servers use: `{var}`, `{+var}`, `{#var}`,
 * `{/var}`, `{.var}`, `{?a,b}` and `{&c}`), matched against concrete URIs.
 *
 * Why not the SDK's `UriTemplate.match`: it returns null when a query variable is missing
 * or when query variables come in another order, and leaves `%2F` encoded. Here query
 * variables are optional and unordered, and every value is percent-decoded exactly once.
 * Values are data, never paths: never build a file path from them.
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
  private readonly pathPattern: RegExp;
  private readonly pathVariables: readonly string[];

  constructor(readonly template: string) {
    const pathVariables: string[] = [];
    const queryVariables: string[] = [];
    let pattern = "^";
    let last = 0;
    for (const expression of template.matchAll(/\{([^{}]*)\}/g)) {
      pattern += escapeRegExp(template.slice(last, expression.index));
      last = expression.index + expression[0].length;
      const body = expression[1] ?? "";
      const operator = /^[+#/.?&]/.test(body) ? body[0] : "";
      const names = body
        .slice(operator.length)
        .split(",")
        .map((n) => n.trim().replace(/\*$|:\d+$/, ""));
      if (names.some((n) => !/^[A-Za-z0-9_]+$/.test(n))) {
        throw new Error(`invalid expression "{${body}}" in URI template "${template}"`);
      }
      if (operator === "?" || operator === "&") {
        queryVariables.push(...names);
        continue;
      }
      pathVariables.push(...names);
      pattern += operatorPattern(operator, names.length);
    }
    if (template.slice(last).includes("{") || template.slice(last).includes("}")) {
      throw new Error(`unbalanced braces in URI template "${template}"`);
    }
    pattern += `${escapeRegExp(template.slice(last))}$`;
    this.pathPattern = new RegExp(pattern);
    this.pathVariables = pathVariables;
    this.queryVariables = queryVariables;
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
    const found = this.pathPattern.exec(path);
    if (!found) return undefined;
    const values: Record<string, string> = {};
    let group = 1;
    for (const name of this.pathVariables) {
      const raw = found[group++];
      if (raw === undefined) return undefined;
      const decoded = safeDecode(raw);
      if (decoded === undefined) return undefined;
      values[name] = decoded;
    }
    if (query) {
      for (const pair of query.split("&")) {
        if (!pair) continue;
        const eq = pair.indexOf("=");
        const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
        const value = safeDecode(eq < 0 ? "" : pair.slice(eq + 1).replace(/\+/g, " "));
        // An unknown or repeated query parameter is a different resource, not a silent drop.
        if (name === undefined || value === undefined || !this.queryVariables.includes(name))
          return undefined;
        if (Object.hasOwn(values, name)) return undefined;
        values[name] = value;
      }
    }
    return values;
  }

  /** Builds a concrete URI; query variables that are `undefined` are left out. */
  expand(values: Record<string, string | number | undefined>): string {
    let query = "";
    const path = this.template.replace(/\{([^{}]*)\}/g, (_whole, body: string) => {
      const operator = /^[+#/.?&]/.test(body) ? body[0] : "";
      const names = body.slice(operator.length).split(",");
      if (operator === "?" || operator === "&") {
        for (const name of names) {
          const value = values[name];
          if (value === undefined) continue;
          query += `${query ? "&" : "?"}${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
        }
        return "";
      }
      const encoded = names.map((name) => {
        const value = String(values[name] ?? "");
        return operator === "+" || operator === "#" ? encodeURI(value) : encodeURIComponent(value);
      });
      const prefix = operator === "+" ? "" : operator;
      return prefix + encoded.join(",");
    });
    return path + query;
  }
}

function operatorPattern(operator: string, count: number): string {
  const value = operator === "+" || operator === "#" ? "([^?#]+?)" : "([^/?#,]+)";
  const separator = operator === "+" || operator === "#" || operator === "" ? "," : operator;
  const prefix = operator === "+" || operator === "" ? "" : escapeRegExp(operator);
  return prefix + Array.from({ length: count }, () => value).join(escapeRegExp(separator));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
