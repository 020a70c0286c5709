/** `listArticles` → `list_articles`, `getHTTPStatus` → `get_http_status`. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[\s-]+/g, "_")
    .toLowerCase();
}

/** The MCP specification's rule for tool names: 1–128 of `A-Z a-z 0-9 _ - .`. */
export function isValidToolName(name: string): boolean {
  return /^[A-Za-z0-9_.-]{1,128}$/.test(name);
}
