import type { InjectionToken } from "tsyringe";
import { describe, expect, it } from "vitest";
import type { CapabilityOperation, CapabilityServices } from "../../../src/pipeline/capability.js";
import { stageFromApp } from "../../../src/pipeline/stage-from-app.js";
import { recordingLogger } from "../../support/unit-build.js";

// Cast, not declared: a declared union type would narrow to `symbol` here, losing what the token gives.
const PARTS = Symbol("parts") as InjectionToken<{ label: string }>;
const operation: CapabilityOperation = {
  where: "Feed.list",
  kind: "tool",
  name: "list",
  serviceClass: Object,
  property: "list",
};
const servicesGiving = (parts: unknown): CapabilityServices => ({
  resolve: <T>(token: unknown) => (token === PARTS ? parts : undefined) as T,
  logger: recordingLogger(),
});

describe("stageFromApp", () => {
  const create = stageFromApp(
    PARTS,
    (spec: { n: number }, op, deps) => async (_call, next) =>
      `${deps.label} ${op.where} ${spec.n}: ${await next()}`,
  );

  it("makes the stage with what the app gives under the token", async () => {
    const stage = create({ n: 2 }, operation, servicesGiving({ label: "given" }));
    expect(await stage?.({} as never, async () => "handler")).toBe("given Feed.list 2: handler");
  });

  it("makes no stage when the app gives nothing (a registry built without the app's parts)", () => {
    expect(create({ n: 2 }, operation, servicesGiving(undefined))).toBeUndefined();
  });
});
