import { type Attributes, SpanKind, type SpanOptions } from "@opentelemetry/api";
import type { Registry } from "../../builder/registry.js";
import { Cached } from "../../cache/cached.capability.js";
import { Ephemeral } from "../../ephemeral/ephemeral.capability.js";
import { EPHEMERAL_SCHEME } from "../../ephemeral/ephemeral-uri.js";
import type { AppMetrics } from "../../metrics/app-metrics.js";
import type { OperationCounters } from "../../metrics/operation-stats.js";
import { FRUGAL_ATTRIBUTES, MCP_ATTRIBUTES } from "../../observability/mcp-attributes.js";
import { specOf } from "../../pipeline/capability.js";
import type { OperationDefinition } from "../../pipeline/operation.js";

/** The statistics key of reads of stored resources that no tool of the app made. */
export const STORED_RESOURCES_KEY = "(stored resources)";
/** Distinct error types remembered per operation; past it, attributes are built per call. */
const MAX_ERROR_TYPES = 32;

/**
 * What every call of one operation shares, computed on its first call: its statistics
 * key and counters, its span name and options, its metric attributes. Nothing here is
 * rebuilt per call, so a call with no OpenTelemetry SDK registered allocates nothing for it.
 */
export interface CallProbe {
  /** The key of `app.stats().operations`. */
  readonly key: string;
  readonly counters: OperationCounters;
  /** `{mcp.method.name} {target}`: `tools/call list_articles`, `prompts/get summarize`, `resources/read`. */
  readonly spanName: string;
  /** Kind SERVER and the attributes every call of the operation has. */
  readonly spanOptions: SpanOptions;
  /** `mcp.method.name`, the tool or prompt name, `frugal.operation`: low cardinality, for metrics. */
  readonly metricAttributes: Attributes;
  /** True under `@Cached`: spans say whether the cache answered. */
  readonly cached: boolean;
  /** True under `@Ephemeral`: spans say whether the result was spilled. */
  readonly spills: boolean;
  /** The metric attributes of a failed call, with `error.type` (and `rpc.response.status_code`). */
  errorAttributes(errorType: string, withStatusCode: boolean): Attributes;
}

/** The probe of a declared tool, resource (URI or template) or prompt. */
export function operationProbe(
  definition: OperationDefinition,
  registry: Registry,
  metrics: AppMetrics,
): CallProbe {
  switch (definition.kind) {
    case "tool":
      return makeProbe(metrics, definition.name, `tools/call ${definition.name}`, definition, {
        [MCP_ATTRIBUTES.method]: "tools/call",
        [MCP_ATTRIBUTES.toolName]: definition.name,
        [MCP_ATTRIBUTES.genAiOperation]: "execute_tool",
      });
    case "prompt": {
      // Keys are names; a prompt named like a tool is told apart rather than mixed with it.
      const key = registry.tools.has(definition.name) ? `prompt:${definition.name}` : definition.name;
      return makeProbe(metrics, key, `prompts/get ${definition.name}`, definition, {
        [MCP_ATTRIBUTES.method]: "prompts/get",
        [MCP_ATTRIBUTES.promptName]: definition.name,
      });
    }
    case "resource":
      // The conventions keep URIs out of span names (high cardinality): the URI is an attribute.
      return makeProbe(metrics, definition.uri, "resources/read", definition, {
        [MCP_ATTRIBUTES.method]: "resources/read",
      });
  }
}

/**
 * The probe of a read of a stored resource: one per tool that made it
 * (`ephemeral://search_logs/{id}`), one for every other stored URI. Never one per URI:
 * clients choose the URIs they read, and the statistics must stay bounded.
 */
export function storedReadProbe(
  uri: string,
  registry: Registry,
  metrics: AppMetrics,
  probes: Map<string, CallProbe>,
): CallProbe {
  const tool = toolOfEphemeralUri(uri);
  const key =
    tool !== undefined && registry.tools.has(tool)
      ? `${EPHEMERAL_SCHEME}${encodeURIComponent(tool)}/{id}`
      : STORED_RESOURCES_KEY;
  let probe = probes.get(key);
  if (!probe) {
    probe = makeProbe(metrics, key, "resources/read", undefined, {
      [MCP_ATTRIBUTES.method]: "resources/read",
    });
    probes.set(key, probe);
  }
  return probe;
}

function makeProbe(
  metrics: AppMetrics,
  key: string,
  spanName: string,
  definition: OperationDefinition | undefined,
  attributes: Attributes,
): CallProbe {
  const base = Object.freeze({ ...attributes, [FRUGAL_ATTRIBUTES.operation]: key });
  const failures = new Map<string, Attributes>();
  return {
    key,
    counters: metrics.operation(key),
    spanName,
    spanOptions: Object.freeze({ kind: SpanKind.SERVER, attributes: base }),
    metricAttributes: base,
    cached: definition !== undefined && specOf(definition, Cached.capability) !== undefined,
    spills: definition !== undefined && specOf(definition, Ephemeral.capability) !== undefined,
    errorAttributes(errorType, withStatusCode) {
      const name = withStatusCode ? `${errorType}+status` : errorType;
      let found = failures.get(name);
      if (!found) {
        found = Object.freeze({
          ...base,
          [MCP_ATTRIBUTES.errorType]: errorType,
          ...(withStatusCode ? { [MCP_ATTRIBUTES.statusCode]: errorType } : {}),
        });
        if (failures.size < MAX_ERROR_TYPES) failures.set(name, found);
      }
      return found;
    },
  };
}

/** The tool name in `ephemeral://<tool>/<id>`, or undefined for any other URI. */
function toolOfEphemeralUri(uri: string): string | undefined {
  if (!uri.startsWith(EPHEMERAL_SCHEME)) return undefined;
  const end = uri.indexOf("/", EPHEMERAL_SCHEME.length);
  if (end < 0) return undefined;
  try {
    return decodeURIComponent(uri.slice(EPHEMERAL_SCHEME.length, end));
  } catch {
    return undefined;
  }
}
