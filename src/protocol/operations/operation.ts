import type { z } from "zod/v4";
import type { RequestExtra } from "../calls/call-context.js";
import type { Session } from "../session.js";
import { clearParams, type RequestSchema } from "./clear-params.js";

/**
 * One protocol operation (`tools/call`, `resources/read`, …), the same for both protocol eras:
 * what it does with a request of one serving unit. Built once per app; each era's registrar
 * installs it on its own SDK's server under `method`.
 */
export interface ProtocolOperation {
  readonly method: string;
  /** The SDK 1.x request schema, its params refused with -32602 naming the field (`clearParams`). */
  readonly schema: RequestSchema;
  handle(session: Session, request: { method: string; params?: unknown }, extra: RequestExtra): unknown;
}

/** Every operation an app serves; made once (`createOperationTable`), installed per serving unit. */
export type OperationTable = readonly ProtocolOperation[];

/**
 * An operation on the requests `schema` describes, typed by it.
 *
 * @example
 * ```ts
 * operation(SetLevelRequestSchema, (session, request) => {
 *   session.logLevel = request.params.level;
 *   return {};
 * });
 * ```
 */
export function operation<S extends RequestSchema>(
  schema: S,
  handle: (session: Session, request: z.infer<S>, extra: RequestExtra) => unknown,
): ProtocolOperation {
  const checked = clearParams(schema);
  return {
    method: checked.shape.method.value,
    schema: checked,
    handle: handle as ProtocolOperation["handle"],
  };
}
