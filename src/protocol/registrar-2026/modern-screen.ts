import type { IncomingMessage } from "node:http";
import { FrugalConfigError } from "../../errors/config-error.js";
import type { InputLimits } from "../../pipeline/stages/measure-input.js";
import type { AppRuntime } from "../app-runtime.js";
import type { ModernRefusal } from "./modern-era.js";
import { type ParamHeader, paramHeaderMismatch, paramHeadersOf } from "./param-headers.js";
import { answersProblem } from "./screen-answers.js";

/** JSON-RPC code of a request whose headers and body disagree (SEP-2243). */
const HEADER_MISMATCH = -32020;

/** What the front door checks of a 2026-07-28 request before the SDK sees it. */
export type ModernScreen = (req: IncomingMessage, body: unknown) => ModernRefusal | undefined;

/**
 * The screen of an app's 2026-07-28 requests: a `params` (or `_meta`) that is no object; the
 * `Mcp-Param-*` headers of a `tools/call` against its arguments (SEP-2243); the answers in
 * `inputResponses` against the input limits of arguments. The header-mirrored parameters of
 * every tool are read now: a bad declaration fails start-up, naming the tool.
 *
 * @example
 * const screen = modernScreen(runtime, { ...DEFAULT_INPUT_LIMITS, ...options.inputLimits });
 * const refusal = screen(req, body); // undefined: the SDK may see it
 */
export function modernScreen(runtime: AppRuntime, inputLimits: InputLimits): ModernScreen {
  const paramHeaders = paramHeadersByTool(runtime);
  return (req, body) => {
    const params = (body as { method?: unknown; params?: Record<string, unknown> } | null)?.params;
    const shape = paramsShapeProblem(params);
    if (shape) return { status: 400, code: -32602, message: `Invalid params: ${shape}` };
    if (params === undefined) return undefined;
    const method = (body as { method?: unknown }).method;
    const declared = method === "tools/call" ? paramHeaders.get(String(params.name)) : undefined;
    const mismatch = declared && paramHeaderMismatch(declared, params.arguments, req.headers);
    if (mismatch) {
      return {
        status: 400,
        code: HEADER_MISMATCH,
        message: `Bad Request: the request headers and body disagree: ${mismatch.problem}`,
        data: { mismatch: { header: mismatch.header, body: mismatch.problem } },
      };
    }
    const problem = answersProblem(body, inputLimits);
    return problem ? { status: 200, code: -32602, message: problem } : undefined;
  };
}

/** Why `params` (or its `_meta`, the 2026-07-28 envelope) is no object, naming it; the SDK says only "not a valid JSON-RPC message". */
function paramsShapeProblem(params: unknown): string | undefined {
  const kind = (value: unknown) =>
    value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  const isObject = (value: unknown) => value !== null && typeof value === "object" && !Array.isArray(value);
  if (params === undefined) return undefined;
  if (!isObject(params)) return `\`params\` must be an object, not ${kind(params)}`;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta !== undefined && !isObject(meta))
    return `\`params._meta\` (the 2026-07-28 envelope) must be an object, not ${kind(meta)}`;
  return undefined;
}

/** The header-mirrored parameters of every tool; a bad declaration fails start-up, naming the tool. */
function paramHeadersByTool(runtime: AppRuntime): Map<string, ParamHeader[]> {
  const byTool = new Map<string, ParamHeader[]>();
  for (const [name, operation] of runtime.registry.tools) {
    try {
      const declared = paramHeadersOf(operation.definition.listing.inputSchema);
      if (declared.length > 0) byTool.set(name, declared);
    } catch (error) {
      throw new FrugalConfigError(
        operation.definition.where,
        `its input declares an invalid x-mcp-header (${(error as Error).message})`,
        'declare x-mcp-header only on a string, integer or boolean property of the input (z.string().meta({ "x-mcp-header": "Region" })), with a name unique across the tool',
      );
    }
  }
  return byTool;
}
