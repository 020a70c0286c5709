import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/budget/budget.capability.js";
import { decoratorsOn } from "../../../src/builder/decorator-names.js";
import { Cached } from "../../../src/cache/cached.capability.js";
import { defineCapability } from "../../../src/decorators/define-capability.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { UseInterceptors } from "../../../src/decorators/use-interceptors.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";

const RateLimit = defineCapability({
  name: "rateLimit",
  decorator: "@RateLimit",
  options: (n: number) => ({ n }),
});
class Audit {
  intercept() {
    return { content: [] };
  }
}

describe("decoratorsOn", () => {
  it("names every decorator a method carries as users write it, capabilities last", () => {
    class Svc {
      @Tool()
      @RateLimit(5)
      @Paginated("id")
      @Cached({ ttl: 1 })
      @Budget(100)
      @UseInterceptors(Audit)
      list() {}
    }
    const metadata = metadataStore.ownMethod(Svc.prototype, "list");
    if (!metadata) throw new Error("no metadata recorded");
    expect(decoratorsOn(metadata)).toEqual([
      "@UseInterceptors",
      "@Tool",
      "@Budget",
      "@Cached",
      "@Paginated",
      "@RateLimit",
    ]);
  });

  it("names nothing for a member's kind alone", () => {
    expect(decoratorsOn({ memberKind: "method" })).toEqual([]);
  });
});
