import { describe, expect, it } from "vitest";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { container } from "../../../src/decorators/tsyringe.js";
import { metadataStore } from "../../../src/metadata/store.js";

class Clock {
  now() {
    return 42;
  }
}

describe("@McpService", () => {
  it("records the service options on the class, as a copy", () => {
    const options = { toolPrefix: "github_" };
    @McpService(options)
    class GithubService {}
    options.toolPrefix = "changed_";
    expect(metadataStore.service(GithubService)?.service).toEqual({ toolPrefix: "github_" });
    expect(metadataStore.service(class NotAService {})).toBeUndefined();
  });

  it("makes the class buildable by a container, its constructor parameters injected", () => {
    @McpService()
    class MathService {
      constructor(readonly clock: Clock) {}
    }
    const built = container.createChildContainer().resolve(MathService);
    expect(built.clock).toBeInstanceOf(Clock);
    expect(built.clock.now()).toBe(42);
  });

  it("registers nothing in the global container: a decorator only records", () => {
    @McpService()
    class Registered {}
    expect(container.isRegistered(Registered)).toBe(false);
  });
});
