/** The parts of a listed tool a model reads; the rest of a `tools/list` entry stays with the host. */
export interface ListedTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
}

/**
 * What a model reads of a list of tools: each tool's `name`, `description` and `inputSchema`,
 * as JSON. Hosts hand exactly these three to a model's API (its tool definitions); `title`,
 * `annotations`, `outputSchema`, `icons` and `_meta` inform the host, not the model. One
 * definition, so `app.stats().catalogue` and `tokensOf` of a `tools/list` answer agree.
 *
 * @example
 * ```ts
 * catalogueText([{ name: "ping", description: "Ping", inputSchema: { type: "object" }, annotations: {} }]);
 * // '[{"name":"ping","description":"Ping","inputSchema":{"type":"object"}}]'
 * ```
 */
export function catalogueText(tools: readonly ListedTool[]): string {
  return JSON.stringify(
    tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  );
}
