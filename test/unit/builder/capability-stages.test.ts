import { describe, expect, it } from "vitest";
import {
  type NamedStage,
  pipelineOrder,
  placeCapabilityStages,
} from "../../../src/builder/capability-stages.js";
import { Cached } from "../../../src/cache/cached.capability.js";
import { defineCapability } from "../../../src/decorators/define-capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import type { CapabilityServices, CapabilityStageFunction } from "../../../src/pipeline/capability.js";
import { compose } from "../../../src/pipeline/compose.js";
import type { Stage } from "../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../src/pipeline/operation.js";
import type { StageName } from "../../../src/pipeline/order.js";
import { invocationOf, recordingLogger, resourceOf, toolOf } from "../../support/unit-build.js";

const trace: string[] = [];
const traced =
  (name: string): Stage =>
  async (_invocation, next) => {
    trace.push(name);
    return next();
  };
/** A stage's `create` whose stage notes `label` in the trace and goes on. */
const tracing = (label: string) => (): CapabilityStageFunction => async (_call, next) => {
  trace.push(label);
  return next();
};
const capability = (name: string, after: StageName, refuse = false) =>
  defineCapability({
    name,
    decorator: `@${name}`,
    options: () => ({}),
    stage: {
      after,
      create: (_spec, operation) => async (_call, next) => {
        trace.push(`${name}(${operation.name})`);
        if (refuse) throw new Error(`${name} refused`);
        return next();
      },
    },
  });
const Zeta = capability("zeta", "interceptors");
const Alpha = capability("alpha", "interceptors");
const AfterCache = capability("afterCache", "cache");
const Guard = capability("guard", "validate", true);
// Named to sort last: holding a place, it still runs outside what is placed after that place.
const Holder = defineCapability({
  name: "zHolder",
  decorator: "@Holder",
  options: () => ({}),
  stage: {
    at: "cache",
    create: tracing("holder"),
  },
});
const Nowhere = defineCapability({
  name: "nowhere",
  decorator: "@Nowhere",
  options: () => ({}),
  stage: { create: () => async (_call, next) => next() },
});
const Typo = defineCapability({
  name: "typo",
  decorator: "@Typo",
  options: () => ({}),
  stage: { after: "budgett", create: () => async (_call, next) => next() },
});
const Orphan = defineCapability({
  name: "orphan",
  decorator: "@Orphan",
  options: () => ({}),
  stage: { place: "orphan", before: "nothing", create: () => async (_call, next) => next() },
});
const Silent = defineCapability({
  name: "silent",
  decorator: "@Silent",
  options: () => ({}),
  stage: { after: "validate", create: () => undefined },
});

// Two stages, each at a place of its own: one on the way in, one next to the handler.
const Paired = defineCapability({
  name: "paired",
  decorator: "@Paired",
  options: () => ({}),
  stages: [
    {
      place: "pairedIn",
      after: "interceptors",
      innermost: true,
      create: tracing("pairedIn"),
    },
    {
      place: "pairedOut",
      after: "shape",
      innermost: true,
      create: tracing("pairedOut"),
    },
  ],
});
// Placed by name after "interceptors" and "shape" ("z…" sorts after "paired…"), yet outside the innermost places.
const ZIn = defineCapability({
  name: "zIn",
  decorator: "@ZIn",
  options: () => ({}),
  stage: {
    place: "zIn",
    after: "interceptors",
    create: tracing("zIn"),
  },
});
const ZOut = defineCapability({
  name: "zOut",
  decorator: "@ZOut",
  options: () => ({}),
  stage: {
    place: "zOut",
    after: "shape",
    create: tracing("zOut"),
  },
});

// Named to sort before "paired": at a place, it still runs inside the place's holder, as a
// stage at a kernel place runs inside the kernel's stage.
const AtPaired = defineCapability({
  name: "aAt",
  decorator: "@AtPaired",
  options: () => ({}),
  stage: {
    at: "pairedIn",
    create: tracing("aAt"),
  },
});
const placeNamed = (name: string, place: string) =>
  defineCapability({
    name,
    decorator: `@${name}`,
    options: () => ({}),
    stage: { place, after: "validate", create: () => async (_call, next) => next() },
  });

@McpService()
class Search {
  // Decorators apply bottom-up: @Zeta is recorded before @Alpha, yet "alpha" runs first.
  @Tool() @Alpha() @AfterCache() @Zeta() @Silent() query() {}
  @Tool() @Guard() guarded() {}
  @Resource("search://{q}") @Guard() read() {}
  @Tool() @AfterCache() @Holder() @Alpha() held() {}
  @Tool() @ZOut() @Paired() @ZIn() paired() {}
  @Tool() @AtPaired() @Paired() atPaired() {}
}

@McpService()
class Lost {
  @Tool() @Nowhere() lost() {}
}

const logger = recordingLogger();
const services: CapabilityServices = { resolve: () => undefined as never, logger };

async function run(definition: OperationDefinition, builtIn: NamedStage[]) {
  trace.length = 0;
  // The app registers `@Cached`, which declares the "cache" place the test capabilities name.
  const order = pipelineOrder([Cached.capability, ...definition.capabilities.keys()]);
  const stages = placeCapabilityStages(definition, builtIn, services, order);
  return compose(stages, async () => {
    trace.push("handler");
    return "done";
  })(invocationOf(definition));
}

describe("placeCapabilityStages", () => {
  it("places each capability just inside the built-in stage it names, same-place ones by name", async () => {
    const definition = toolOf(Search, "query");
    await run(definition, [
      { name: "validate", stage: traced("validate") },
      { name: "interceptors", stage: traced("interceptors") },
      { name: "cache", stage: traced("cache") },
      { name: "shape", stage: traced("shape") },
    ]);
    expect(trace).toEqual([
      "validate",
      "interceptors",
      "alpha(query)",
      "zeta(query)",
      "cache",
      "afterCache(query)",
      "shape",
      "handler",
    ]);
  });

  it("runs a capability placed `at` a name in that place, with those placed after it inside", async () => {
    await run(toolOf(Search, "held"), [
      { name: "interceptors", stage: traced("interceptors") },
      { name: "shape", stage: traced("shape") },
    ]);
    expect(trace).toEqual(["interceptors", "alpha(held)", "holder", "afterCache(held)", "shape", "handler"]);
  });

  it("places each of a capability's stages at its own place, innermost ones inside the others there", async () => {
    const definition = toolOf(Search, "paired");
    expect(pipelineOrder([Cached.capability, ...definition.capabilities.keys()])).toEqual([
      "validate",
      "interceptors",
      "zIn",
      "pairedIn",
      "cache",
      "shape",
      "budget",
      "zOut",
      "pairedOut",
    ]);
    await run(definition, [
      { name: "validate", stage: traced("validate") },
      { name: "interceptors", stage: traced("interceptors") },
      { name: "shape", stage: traced("shape") },
    ]);
    expect(trace).toEqual([
      "validate",
      "interceptors",
      "zIn",
      "pairedIn",
      "shape",
      "zOut",
      "pairedOut",
      "handler",
    ]);
  });

  it("runs the holder of a place outside the stages placed `at` it, whatever their names", async () => {
    await run(toolOf(Search, "at_paired"), [
      { name: "interceptors", stage: traced("interceptors") },
      { name: "shape", stage: traced("shape") },
    ]);
    expect(trace).toEqual(["interceptors", "pairedIn", "aAt", "shape", "pairedOut", "handler"]);
  });

  it("refuses a place declared twice, or a kernel place declared again, naming who holds it", () => {
    const again = placeNamed("again", "pairedIn");
    expect(() => pipelineOrder([Paired.capability, again.capability])).toThrow(
      '@again: its place "pairedIn" is already declared by @Paired. Fix: give the place another name, or declare none and place the stage `after` (or `at`) "pairedIn"',
    );
    expect(() => pipelineOrder([again.capability, Paired.capability])).toThrow(
      '@Paired: its place "pairedIn" is already declared by @again.',
    );
    expect(() => pipelineOrder([placeNamed("kernelAgain", "shape").capability])).toThrow(
      '@kernelAgain: its place "shape" is already declared by the kernel.',
    );
  });

  it("refuses a stage that names no place", () => {
    expect(() => toolOf(Lost, "lost")).toThrow(
      "@Nowhere: its stage names no place; give it `after` (a PIPELINE_ORDER name)",
    );
  });

  it("refuses a stage placed at a place nobody declares, naming it", () => {
    @McpService()
    class Typos {
      @Tool() @Typo() typo() {}
    }
    expect(() => toolOf(Typos, "typo")).toThrow(
      '@Typo: its stage is placed at "budgett", which neither the kernel nor a capability of the app declares',
    );
    @McpService()
    class Orphans {
      @Tool() @Orphan() orphan() {}
    }
    expect(() => toolOf(Orphans, "orphan")).toThrow(
      '@Orphan: its place "orphan" goes before "nothing", which neither the kernel nor a capability of the app declares',
    );
  });

  it("keeps a capability's place when the stage it names is absent from the operation", async () => {
    await run(toolOf(Search, "query"), [{ name: "shape", stage: traced("shape") }]);
    expect(trace).toEqual(["alpha(query)", "zeta(query)", "afterCache(query)", "shape", "handler"]);
  });

  it("answers a tool refused by a capability outside shape with isError, as an interceptor's refusal", async () => {
    const result = await run(toolOf(Search, "guarded"), []);
    expect(result).toEqual({ content: [{ type: "text", text: "guard refused" }], isError: true });
    expect(trace).toEqual(["guard(guarded)"]);
  });

  it("lets a resource refusal reject, and names a resource by its URI", async () => {
    await expect(run(resourceOf(Search, "search://{q}"), [])).rejects.toThrow("guard refused");
    expect(trace).toEqual(["guard(search://{q})"]);
  });
});
