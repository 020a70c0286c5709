import type { Logger } from "../../logging/logger.js";
import type { InterceptedCall, Interceptor, InterceptorClass, ProtocolResult } from "../interceptor.js";
import type { Invocation } from "../invocation.js";
import type { OperationDefinition } from "../operation.js";
import type { StageFactory } from "../stage-factory.js";
import { failedCallResult } from "./failed-call.js";

/**
 * Runs user interceptors around the rest of the call: the app's first, then the class's,
 * then the method's, each in the order given. `instanceOf` builds (once per app) the
 * interceptor of a class with the app's container, so constructor injection works.
 */
export function interceptorsStage(
  appWide: readonly Interceptor[],
  instanceOf: (type: InterceptorClass) => Interceptor,
  logger: Logger,
): StageFactory {
  return {
    name: "interceptors",
    create(definition) {
      const chain = [...appWide, ...definition.interceptors.map(instanceOf)];
      if (chain.length === 0) return undefined;
      return async (invocation, next) => {
        const call = interceptedCall(definition, invocation);
        const run = async (index: number): Promise<ProtocolResult> => {
          const interceptor = chain[index];
          if (!interceptor) return (await next()) as ProtocolResult;
          return interceptor.intercept(call, () => run(index + 1));
        };
        if (definition.kind !== "tool") return run(0);
        try {
          return await run(0);
        } catch (error) {
          return failedCallResult(definition, error, logger);
        }
      };
    },
  };
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
