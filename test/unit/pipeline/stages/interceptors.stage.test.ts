import { describe, expect, it } from "vitest";
import { Cached } from "../../../../src/cache/cached.capability.js";
import { McpService } from "../../../../src/decorators/mcp-service.decorator.js";
import { Resource } from "../../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../../src/decorators/tool.decorator.js";
import { UseInterceptors } from "../../../../src/decorators/use-interceptors.decorator.js";
import { invalidParams } from "../../../../src/errors/protocol-errors.js";
import type { InterceptedCall, Interceptor, ProtocolResult } from "../../../../src/pipeline/interceptor.js";
import type { Stage } from "../../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../../src/pipeline/operation.js";
import { interceptorsStage, runInterceptors } from "../../../../src/pipeline/stages/interceptors.stage.js";
import { invocationOf, recordingLogger, resourceOf, toolOf } from "../../../support/unit-build.js";

/** An interceptor that writes its name to `trace` on the way in and out. */
function tracing(name: string, trace: string[]): Interceptor {
  return {
    async intercept(_call, next) {
      trace.push(`${name}>`);
      const result = await next();
      trace.push(`<${name}`);
      return result;
    },
  };
}

class Refuse implements Interceptor {
  intercept(): ProtocolResult {
    throw new Error("missing scope articles:write");
  }
}
class TwiceNext implements Interceptor {
  async intercept(_call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    await next();
    return next();
  }
}
class Mutate implements Interceptor {
  async intercept(_call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    const result = (await next()) as { content: Array<{ text: string }> };
    (result.content[0] as { text: string }).text = "changed by an interceptor";
    return result as ProtocolResult;
  }
}

const classTrace: string[] = [];
class ClassLevel implements Interceptor {
  intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    return tracing("class", classTrace).intercept(call, next);
  }
}
class MethodLevel implements Interceptor {
  intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    return tracing("method", classTrace).intercept(call, next);
  }
}

@McpService()
@UseInterceptors(ClassLevel)
class Articles {
  @Tool() @UseInterceptors(MethodLevel) publish() {}
}

@McpService()
class Plain {
  @Tool() open() {}
  @Tool() @UseInterceptors(Refuse) guarded() {}
  @Tool() @UseInterceptors(TwiceNext) twice() {}
  @Tool() @Cached({ ttl: 1000 }) @UseInterceptors(Mutate) cached() {}
  @Resource("articles://{id}") @UseInterceptors(Refuse) article() {}
}

const instanceOf = (type: unknown) =>
  typeof type === "function" ? new (type as new () => Interceptor)() : (type as Interceptor);
const textResult = (text: string) => async (): Promise<ProtocolResult> => ({
  content: [{ type: "text", text }],
});

function stageOf(definition: OperationDefinition, appWide: Interceptor[] = [], logger = recordingLogger()) {
  return interceptorsStage(appWide, instanceOf, logger).create(definition) as Stage | undefined;
}

describe("interceptorsStage", () => {
  it("adds no stage to an operation without interceptors", () => {
    expect(stageOf(toolOf(Plain, "open"))).toBeUndefined();
  });

  it("runs the app's interceptors, then the class's, then the method's, around the rest of the call", async () => {
    classTrace.length = 0;
    const definition = toolOf(Articles, "publish");
    const stage = stageOf(definition, [tracing("app", classTrace)]) as Stage;
    const result = await stage(invocationOf(definition), async () => {
      classTrace.push("handler");
      return { content: [] };
    });
    expect(result).toEqual({ content: [] });
    expect(classTrace).toEqual(["app>", "class>", "method>", "handler", "<method", "<class", "<app"]);
  });

  it("tells an interceptor what it wraps", async () => {
    const seen: InterceptedCall[] = [];
    const spy: Interceptor = {
      intercept: (call, next) => {
        seen.push(call);
        return next();
      },
    };
    const definition = toolOf(Plain, "open");
    const invocation = invocationOf(definition);
    invocation.input = { site: "blog" };
    await (stageOf(definition, [spy]) as Stage)(invocation, textResult("ok"));
    expect(seen[0]).toMatchObject({
      kind: "tool",
      name: "open",
      input: { site: "blog" },
      service: Plain,
      method: "open",
    });
    expect(seen[0]?.ctx).toBe(invocation.ctx);
    expect(Object.isFrozen(seen[0])).toBe(true);
  });

  it("answers a tool refused by an interceptor with isError, logged at debug", async () => {
    const logger = recordingLogger();
    const definition = toolOf(Plain, "guarded");
    const result = await (stageOf(definition, [], logger) as Stage)(
      invocationOf(definition),
      textResult("ran"),
    );
    expect(result).toEqual({
      content: [{ type: "text", text: "missing scope articles:write" }],
      isError: true,
    });
    expect(logger.lines.map((line) => line.level)).toEqual(["debug"]);
  });

  it("lets a resource refusal reject, for the protocol to answer as an error", async () => {
    const definition = resourceOf(Plain, "articles://{id}");
    await expect(
      (stageOf(definition) as Stage)(invocationOf(definition, {}, { uri: "articles://1" }), textResult("x")),
    ).rejects.toThrow("missing scope articles:write");
  });

  it("rethrows a protocol error thrown by an interceptor of a tool", async () => {
    const definition = toolOf(Plain, "open");
    const protocol: Interceptor = {
      intercept: () => {
        throw invalidParams("bad cursor");
      },
    };
    await expect(
      (stageOf(definition, [protocol]) as Stage)(invocationOf(definition), textResult("x")),
    ).rejects.toThrow("bad cursor");
  });

  it("refuses a second next() in one call, runs the handler once and logs the bug as an error", async () => {
    const logger = recordingLogger();
    const definition = toolOf(Plain, "twice");
    let runs = 0;
    const result = await (stageOf(definition, [], logger) as Stage)(invocationOf(definition), async () => {
      runs++;
      return { content: [] };
    });
    expect(runs).toBe(1);
    expect(result).toMatchObject({ isError: true });
    const text = (result as { content: Array<{ text: string }> }).content[0]?.text;
    expect(text).toBe(
      'Interceptor TwiceNext called next() twice in one call of tool "twice": the rest of a call (the handler included) runs once; call next() once and reuse its result',
    );
    expect(logger.lines.map((line) => line.level)).toEqual(["error", "debug"]);
  });

  it("hands interceptors of a cached operation a copy, so changing it leaves the cached entry alone", async () => {
    const definition = toolOf(Plain, "cached");
    const entry = { content: [{ type: "text", text: "cached text" }] };
    const result = await (stageOf(definition) as Stage)(invocationOf(definition), async () => entry);
    expect(result).toEqual({ content: [{ type: "text", text: "changed by an interceptor" }] });
    expect(entry.content[0]?.text).toBe("cached text");
  });
});

describe("runInterceptors", () => {
  it("runs the last step directly without interceptors", async () => {
    const call = {
      kind: "resource",
      name: "x",
      input: {},
      ctx: {},
      service: Plain,
      method: "x",
    } as unknown as InterceptedCall;
    expect(await runInterceptors([], call, textResult("read"))).toEqual({
      content: [{ type: "text", text: "read" }],
    });
  });
});
