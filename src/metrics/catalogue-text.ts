import { fieldOf } from "../common/guards.js";

/** The parts of a listed tool a model reads (and its `_meta`, which says whether it does). */
export interface ListedTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly _meta?: { readonly [key: string]: unknown } | undefined;
}

/**
 * What a model reads of a list of tools: each tool's `name`, `description` and `inputSchema`,
 * as JSON. Hosts hand exactly these three to a model's API (its tool definitions); `title`,
 * `annotations`, `outputSchema`, `icons` and `_meta` inform the host, not the model. An
 * app-only tool (`_meta.ui.visibility` without `"model"`, `@Tool({ visibility: ["app"] })`)
 * is left out: hosts that know the visibility keep it from the model, as frugal-mcp keeps its
 * results from being shaped for one. One definition, so `app.stats().catalogue` and
 * `tokensOf` of a `tools/list` answer agree.
 *
 * @example
 * ```ts
 * catalogueText([{ name: "ping", description: "Ping", inputSchema: { type: "object" }, annotations: {} }]);
 * // '[{"name":"ping","description":"Ping","inputSchema":{"type":"object"}}]'
 * ```
 */
export function catalogueText(tools: readonly ListedTool[]): string {
  return JSON.stringify(
    tools
      .filter(modelVisible)
      .map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  );
}

/** False for an app-only tool: its `_meta.ui.visibility` lists who may see it, and not the model. */
function modelVisible(tool: ListedTool): boolean {
  const visibility = fieldOf(tool._meta?.ui, "visibility");
  return !Array.isArray(visibility) || visibility.includes("model");
}
