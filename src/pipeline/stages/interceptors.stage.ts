import type { Logger } from "../../logging/logger.js";
import {
  type InterceptedCall,
  type Interceptor,
  type InterceptorRef,
  NextCalledTwiceError,
  type ProtocolResult,
} from "../interceptor.js";
import type { Invocation } from "../invocation.js";
import type { OperationDefinition } from "../operation.js";
import type { StageFactory } from "../stage-factory.js";
import { failedCallResult } from "./failed-call.js";

/**
 * Runs user interceptors around the rest of the call: the app's first, then the class's,
 * then the method's, each in the order given. `instanceOf` builds (once per app) the
 * interceptor of a class with the app's container, so constructor injection works.
 *
 * When a capability of the operation shares results (`Capability.sharesResults`: a kept
 * result an in-memory store hands out by reference, one object for coalesced calls),
 * interceptors get a copy: one that wraps by changing its result in place must not change
 * what later calls, or other callers, are served.
 */
export function interceptorsStage(
  appWide: readonly Interceptor[],
  instanceOf: (type: InterceptorRef) => Interceptor,
  logger: Logger,
): StageFactory {
  return {
    name: "interceptors",
    create(definition) {
      const chain = [...appWide, ...definition.interceptors.map(instanceOf)];
      if (chain.length === 0) return undefined;
      const shared = [...definition.capabilities.keys()].some((capability) => capability.sharesResults);
      const own = shared ? copyOf : (result: ProtocolResult) => result;
      return async (invocation, next) => {
        const call = interceptedCall(definition, invocation);
        const rest = async () => own((await next()) as ProtocolResult);
        if (definition.kind !== "tool") return runInterceptors(chain, call, rest);
        try {
          return await runInterceptors(chain, call, rest);
        } catch (error) {
          // A bug in the interceptor, not a refusal: the server's log says so loudly.
          if (error instanceof NextCalledTwiceError) logger.error(error.message, error);
          return failedCallResult(definition, error, logger, "interceptor");
        }
      };
    },
  };
}

/**
 * Runs `chain` around `last`, in order: each interceptor's `next()` runs the following one,
 * the last one's runs `last`. Also used for reads that have no pipeline of their own
 * (stored resources read with `resources/read`), so app-wide interceptors guard them too.
 */
export function runInterceptors(
  chain: readonly Interceptor[],
  call: InterceptedCall,
  last: () => Promise<ProtocolResult>,
): Promise<ProtocolResult> {
  const run = async (index: number): Promise<ProtocolResult> => {
    const interceptor = chain[index];
    if (!interceptor) return last();
    let called = false;
    return interceptor.intercept(call, () => {
      // A second run of the rest would run the handler (and its side effects) twice.
      if (called) return Promise.reject(nextCalledTwice(interceptor, call));
      called = true;
      return run(index + 1);
    });
  };
  return run(0);
}

function interceptedCall(definition: OperationDefinition, invocation: Invocation): InterceptedCall {
  return Object.freeze({
    kind: definition.kind,
    name: definition.name,
    ...(definition.kind === "resource" ? { uri: invocation.uri ?? definition.uri } : {}),
    input: invocation.input,
    ctx: invocation.ctx,
    service: definition.serviceClass,
    method: definition.property,
  });
}

/** A deep copy of a shaped result; one holding what cannot be cloned becomes what the wire would carry. */
function copyOf(result: ProtocolResult): ProtocolResult {
  try {
    return structuredClone(result);
  } catch {
    return JSON.parse(JSON.stringify(result)) as ProtocolResult;
  }
}

function nextCalledTwice(interceptor: Interceptor, call: InterceptedCall): NextCalledTwiceError {
  const name = interceptor.constructor?.name || "an interceptor";
  return new NextCalledTwiceError(
    `Interceptor ${name} called next() twice in one call of ${call.kind} "${call.name}": the rest of a call (the handler included) runs once; call next() once and reuse its result`,
  );
}
