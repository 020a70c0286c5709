import { describe, expect, it } from "vitest";
import type { Registry } from "../../../../src/builder/registry.js";
import { Cached } from "../../../../src/cache/cached.capability.js";
import { Ephemeral } from "../../../../src/ephemeral/ephemeral.capability.js";
import {
  ownerScopedFeatures,
  SUBSCRIBE_REFUSED,
  serverRequestRefused,
} from "../../../../src/protocol/registrar-2025/stateless-session.js";

const op = (where: string, extra: Record<string, unknown> = {}) => ({
  definition: { where, capabilities: new Map(), ...extra },
});

describe("ownerScopedFeatures", () => {
  it("lists every operation cached or spilled per owner, naming the decorator, and nothing global", () => {
    const registry = {
      tools: new Map([
        [
          "a",
          op("Articles.search", {
            capabilities: new Map<object, unknown>([
              [Cached.capability, { scope: "owner" }],
              [Ephemeral.capability, { scope: "owner" }],
            ]),
          }),
        ],
        ["b", op("Articles.count", { capabilities: new Map([[Cached.capability, { scope: "global" }]]) })],
        ["c", op("Plain.run")],
      ]),
      staticResources: new Map([
        [
          "config://app",
          op("Config.read", { capabilities: new Map([[Ephemeral.capability, { scope: "owner" }]]) }),
        ],
      ]),
      templates: [op("Articles.read", { capabilities: new Map([[Cached.capability, { scope: "owner" }]]) })],
      prompts: new Map([
        ["p", op("Prompts.review", { capabilities: new Map([[Cached.capability, { scope: "global" }]]) })],
      ]),
    } as unknown as Registry;
    expect(ownerScopedFeatures(registry)).toEqual([
      'Articles.search (@Cached, scope "owner")',
      'Articles.search (@Ephemeral, scope "owner")',
      'Config.read (@Ephemeral, scope "owner")',
      'Articles.read (@Cached, scope "owner")',
    ]);
  });
});

describe("stateless refusals", () => {
  it("name the method and the way out", () => {
    expect(serverRequestRefused("elicitation/create")).toMatch(
      /^elicitation\/create is not available on a stateless HTTP server: .*stateless: false/,
    );
    expect(SUBSCRIBE_REFUSED).toMatch(/^resources\/subscribe is not available on a stateless HTTP server/);
  });
});
