import { describe, expect, it } from "vitest";
import { createAppContainer } from "../../../src/container/app-container.js";
import { Injectable, McpService, Tool, UseInterceptors } from "../../../src/index.js";
import type { InterceptedCall, Interceptor } from "../../../src/pipeline/interceptor.js";
import { declaredInterceptors, interceptorFactory } from "../../../src/runtime/app-interceptors.js";

@Injectable()
class Counting implements Interceptor {
  intercept(_call: InterceptedCall, next: () => Promise<never>) {
    return next();
  }
}
@Injectable()
class OnMember implements Interceptor {
  intercept(_call: InterceptedCall, next: () => Promise<never>) {
    return next();
  }
}
@Injectable()
class AppWide implements Interceptor {
  intercept(_call: InterceptedCall, next: () => Promise<never>) {
    return next();
  }
}

@McpService()
@UseInterceptors(Counting)
class Service {
  @Tool({ description: "t" })
  @UseInterceptors(OnMember)
  t() {
    return "ok";
  }
}

describe("app interceptors", () => {
  it("finds every interceptor class on services, their members and the app's options, each once", () => {
    const instance: Interceptor = { intercept: (_call, next) => next() };
    expect(new Set(declaredInterceptors([Service], [AppWide, Counting, instance]))).toEqual(
      new Set([AppWide, Counting, OnMember]),
    );
  });

  it("builds each interceptor class once with the app's container, and uses a given instance as it is", () => {
    const container = createAppContainer([], [Counting]);
    const interceptorOf = interceptorFactory(container);
    const first = interceptorOf(Counting);
    expect(first).toBeInstanceOf(Counting);
    expect(interceptorOf(Counting)).toBe(first);
    const instance: Interceptor = { intercept: (_call, next) => next() };
    expect(interceptorOf(instance)).toBe(instance);
  });
});
