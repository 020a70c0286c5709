import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../errors/protocol-errors.js";
import type { OperationDefinition } from "../pipeline/operation.js";

/** What a call answers when its result is over budget and nothing else can be done. */
export interface BudgetExceeded {
  error: "OUTPUT_BUDGET_EXCEEDED";
  /** The tool (or, for a resource read, the resource URI). */
  tool: string;
  /**
   * The size of the whole result in tokens: exact when counting finished, else extrapolated
   * from what was counted (then `estimated` is `true`).
   */
  tokens: number;
  /** Present (`true`) when `tokens` is an estimate: counting stopped early, past the budget. */
  estimated?: true;
  budget: number;
  /** Which inputs to narrow. */
  hint: string;
}

/** The object of `OUTPUT_BUDGET_EXCEEDED`, with a hint built from the operation's inputs. */
export function budgetExceeded(
  definition: OperationDefinition,
  tokens: number,
  budget: number,
  /** For a resource read: the URI actually read (not its template). */
  uri?: string,
  /** `tokens` was extrapolated, not counted to the end. */
  estimated = false,
  /** The tool that reads a resource in slices (`read_resource`), when the app has it. */
  readTool?: string,
): BudgetExceeded {
  const name = definition.kind === "resource" ? (uri ?? definition.uri) : definition.name;
  const narrow = hintFor(definition);
  return {
    error: "OUTPUT_BUDGET_EXCEEDED",
    tool: name,
    tokens,
    ...(estimated ? { estimated: true as const } : {}),
    budget,
    hint:
      definition.kind === "resource" && readTool !== undefined
        ? [narrow, sliceHint(name, readTool, narrow !== undefined)].filter(Boolean).join(" ")
        : (narrow ?? "The result is too large for the budget and this call has no inputs to narrow it."),
  };
}

/** How to read a resource over its budget anyway: in slices (byte chunks for binary content). */
function sliceHint(uri: string, readTool: string, after: boolean): string {
  return `${after ? "Or read" : "Read"} it in slices with ${readTool}({ uri: ${JSON.stringify(uri)}, offset: 0 }), going on from each slice's nextOffset (binary content comes in byte chunks of at most 512 KiB).`;
}

/** A tool's answer: `isError`, the object as `structuredContent` and as its only text block. */
export function budgetExceededResult(exceeded: BudgetExceeded): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(exceeded) }],
    structuredContent: { ...exceeded },
    isError: true,
  };
}

/** A resource read's answer: JSON-RPC `-32602` with the object in `data`. */
export function budgetExceededError(exceeded: BudgetExceeded) {
  return invalidParams(
    `The result of ${exceeded.tool} is over the budget of ${exceeded.budget} tokens (${exceeded.estimated ? "about " : ""}${exceeded.tokens}). ${exceeded.hint}`,
    { ...exceeded, resource: exceeded.tool },
  );
}

function hintFor(definition: OperationDefinition): string | undefined {
  const inputs = Object.keys(definition.inputSchema?.shape ?? {}).filter((name) => name !== "cursor");
  const paged = ["limit", "fields"].filter((name) => inputs.includes(name));
  const filters = inputs.filter((name) => !paged.includes(name));
  const parts = [
    ...paged.map((name) => (name === "limit" ? "a smaller `limit`" : "fewer `fields`")),
    ...(filters.length > 0 ? [`narrower ${filters.map((f) => `\`${f}\``).join(", ")}`] : []),
  ];
  if (parts.length === 0) return undefined;
  return `Call again with ${parts.join(", or ")} to get a smaller result.`;
}
