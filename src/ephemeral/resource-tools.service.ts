import { McpService } from "../decorators/mcp-service.decorator.js";
import { Tool } from "../decorators/tool.decorator.js";
import { EphemeralResourceTools, readResourceInput, searchResourceInput } from "./resource-tools.js";

/**
 * Declares the built-in resource tools under the app's chosen names. Decorators are plain
 * functions, so they are applied here to a fresh subclass per app (re-decorating a
 * subclass replaces nothing of the base class).
 */
export function resourceToolsService(names: { read: string; search: string }): typeof EphemeralResourceTools {
  class ResourceTools extends EphemeralResourceTools {}
  const base = EphemeralResourceTools.prototype;
  Tool({
    name: names.read,
    description:
      "Read a slice of an ephemeral resource (items of a JSON array, lines of text, or bytes as base64). Each slice says total, nextOffset and hasMore; without limit it is as long as the token budget allows.",
    input: readResourceInput,
    annotations: { readOnlyHint: true },
  })(ResourceTools.prototype, "readResource", Object.getOwnPropertyDescriptor(base, "readResource"));
  Tool({
    name: names.search,
    description:
      "Search an ephemeral resource for literal text (or an RE2 regular expression) in each item's JSON or each line; returns matches with their positions and where to continue.",
    input: searchResourceInput,
    annotations: { readOnlyHint: true },
  })(ResourceTools.prototype, "searchResource", Object.getOwnPropertyDescriptor(base, "searchResource"));
  McpService()(ResourceTools);
  return ResourceTools;
}
