import { z } from "zod/v4";
import { invalidParams } from "../../errors/protocol-errors.js";

/** An SDK request schema: an object with a `method` literal and its `params`. */
export type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string>; params: z.ZodType }>;

/**
 * The SDK's request schema, refusing bad params with JSON-RPC `-32602` and a message that
 * names each wrong field and what it expects. The SDK parses a request with the schema a
 * handler was installed with and answers a failed parse `-32603` with zod's raw issue
 * dump (`tools/call` without `name`, `prompts/get` with a number as an argument); an error
 * thrown while parsing carries its own code instead, so the params are parsed here, once.
 *
 * @example
 * ```ts
 * server.setRequestHandler(clearParams(CallToolRequestSchema), handler);
 * // tools/call without name → -32602 "Invalid params for tools/call: `name` is missing (expected string)"
 * ```
 */
export function clearParams<S extends RequestSchema>(schema: S): S {
  const params = schema.shape.params;
  const method = schema.shape.method.value;
  return schema.extend({
    // `catch` runs only when `params` fails, so a valid request is parsed once, as the SDK
    // would (a wrapping transform parsed every request twice: about 5 % of a trivial call).
    // The handler throws, so the fallback value is never used.
    params: params.catch((failed: { error: z.ZodError }) => {
      throw invalidParams(`Invalid params for ${method}: ${describe(failed.error)}`);
    }),
  }) as unknown as S;
}

function describe(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `\`${issue.path.map(String).join(".")}\`` : "`params`";
      const message = issue.message.replace(/^Invalid input: /, "");
      const missing = /^expected (.+), received undefined$/.exec(message);
      return missing ? `${where} is missing (expected ${missing[1]})` : `${where}: ${message}`;
    })
    .join("; ");
}
