import { describe, expect, it } from "vitest";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";

describe("@Resource", () => {
  it("records the URI template with a frozen copy of its options", () => {
    const options = { mimeType: "application/json", description: "Articles of a site" };
    class Articles {
      @Resource("articles://{site}", options) articles({ site }: { site: string }) {
        return site;
      }
    }
    options.mimeType = "text/plain";
    const recorded = metadataStore.ownMethod(Articles.prototype, "articles")?.resource;
    expect(recorded).toEqual({
      uri: "articles://{site}",
      options: { mimeType: "application/json", description: "Articles of a site" },
    });
    expect(Object.isFrozen(recorded)).toBe(true);
  });

  it("records a static URI with empty options", () => {
    class Config {
      @Resource("config://app") read() {}
    }
    expect(metadataStore.ownMethod(Config.prototype, "read")).toEqual({
      memberKind: "method",
      resource: { uri: "config://app", options: {} },
    });
  });
});
