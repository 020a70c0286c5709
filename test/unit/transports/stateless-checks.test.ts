import { describe, expect, it } from "vitest";
import type { SessionHost } from "../../../src/transports/session-host.js";
import { statelessSettingsProblem } from "../../../src/transports/stateless-checks.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const host = (features: string[] = []): SessionHost => ({
  connect: async () => {},
  logger: silent,
  ownerScopedFeatures: () => features,
});
const authenticate = () => "alice";

describe("statelessSettingsProblem", () => {
  it("accepts an app without owner-scoped data, with or without authentication", () => {
    expect(statelessSettingsProblem(host(), {})).toBeUndefined();
    expect(statelessSettingsProblem({ connect: async () => {}, logger: silent }, {})).toBeUndefined();
    expect(statelessSettingsProblem(host(), { allowAnonymous: true, authenticate })).toBeUndefined();
  });

  it("accepts owner-scoped data behind authentication that admits no anonymous caller", () => {
    expect(statelessSettingsProblem(host(["A.search"]), { authenticate })).toBeUndefined();
  });

  it("refuses owner-scoped data without authentication or with anonymous callers, naming the features and the fixes", () => {
    const none = statelessSettingsProblem(host(['ArticlesService.search (@Ephemeral, scope "owner")']), {});
    expect(none).toMatch(/but no authenticate option is set/);
    expect(none).toContain('ArticlesService.search (@Ephemeral, scope "owner")');
    expect(none).toContain('scope: "global"');
    const anonymous = statelessSettingsProblem(host(["A.b"]), { authenticate, allowAnonymous: true });
    expect(anonymous).toMatch(/allowAnonymous lets requests without a principal through/);
  });

  it("lists five features, then how many more", () => {
    const problem = statelessSettingsProblem(host(["a", "b", "c", "d", "e", "f", "g"]), {});
    expect(problem).toContain("features: a, b, c, d, e, and 2 more.");
  });

  it("refuses an event store made per session, which nothing could resume from", () => {
    expect(statelessSettingsProblem(host(), { eventStore: () => ({}) })).toMatch(
      /^HTTP option eventStore: in stateless mode every request stands alone/,
    );
  });
});
