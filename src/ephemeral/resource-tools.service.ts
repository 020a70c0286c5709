import { type DeclaredService, declareTool } from "../builder/declared-service.js";
import { queryResourceInput, readResourceInput, searchResourceInput } from "./resource-tool-inputs.js";
import { EphemeralResourceTools } from "./resource-tools.js";

/** Names of the built-in resource tools (configurable, so they can avoid a user's own names). */
export interface ResourceToolNames {
  readonly read: string;
  readonly search: string;
  readonly query: string;
}

/** The built-in resource tools of one app, declared as data under the app's chosen names. */
export function resourceToolsService(
  tools: EphemeralResourceTools,
  names: ResourceToolNames,
): DeclaredService {
  const declare = (property: string, options: Parameters<typeof declareTool>[2]) =>
    declareTool(EphemeralResourceTools, property, options);
  return {
    serviceClass: EphemeralResourceTools,
    instance: tools,
    members: [
      declare("readResource", {
        name: names.read,
        description:
          "Read a slice of a resource: JSON array items, text lines or base64 bytes; with index (and path), characters of one item, line or string field. Answers nextOffset.",
        input: readResourceInput,
        annotations: { readOnlyHint: true },
      }),
      declare("searchResource", {
        name: names.search,
        description:
          // Where a match is (index, path, offset) is named in the answer itself: the description only says it is there.
          "Find literal text or an RE2 regex in a resource; answers where each match is, with the text around it.",
        input: searchResourceInput,
        annotations: { readOnlyHint: true },
      }),
      declare("queryResource", {
        name: names.query,
        description: "Filter, sort, count or group a JSON array resource's items without reading them all.",
        input: queryResourceInput,
        annotations: { readOnlyHint: true },
      }),
    ],
  };
}
