import { describe, expect, it } from "vitest";
import { McpModule, type McpModuleOptions } from "../../../src/decorators/mcp-module.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";

class ArticlesService {}
class ArticlesRepo {}
class LogsModule {}

describe("@McpModule", () => {
  it("records services, providers and imports as frozen copies", () => {
    const services = [ArticlesService];
    @McpModule({
      services,
      providers: [ArticlesRepo, { provide: "TOKEN", useValue: 1 }],
      imports: [LogsModule],
    })
    class AppModule {}
    services.push(class Late {});
    const recorded = metadataStore.module<Required<McpModuleOptions>>(AppModule);
    expect(recorded?.services).toEqual([ArticlesService]);
    expect(recorded?.providers).toEqual([ArticlesRepo, { provide: "TOKEN", useValue: 1 }]);
    expect(recorded?.imports).toEqual([LogsModule]);
    expect(Object.isFrozen(recorded)).toBe(true);
    expect(Object.isFrozen(recorded?.services)).toBe(true);
  });

  it("fills absent lists with empty ones", () => {
    @McpModule({})
    class Empty {}
    expect(metadataStore.module(Empty)).toEqual({ services: [], providers: [], imports: [] });
  });
});
