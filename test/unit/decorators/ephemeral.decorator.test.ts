import { describe, expect, it } from "vitest";
import { Ephemeral } from "../../../src/decorators/ephemeral.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";

describe("@Ephemeral", () => {
  it("records a frozen copy of its options on the method, and empty options by default", () => {
    const options: { ttl: number; mimeType: string } = { ttl: 3_600_000, mimeType: "application/json" };
    class Logs {
      @Ephemeral(options) search() {}
      @Ephemeral() dump() {}
    }
    options.ttl = 1;
    const recorded = metadataStore.ownMethod(Logs.prototype, "search")?.ephemeral;
    expect(recorded).toEqual({ ttl: 3_600_000, mimeType: "application/json" });
    expect(Object.isFrozen(recorded)).toBe(true);
    expect(metadataStore.ownMethod(Logs.prototype, "dump")?.ephemeral).toEqual({});
  });

  it("records a field it was put on as a field, for start-up to refuse by name", () => {
    class Logs {
      @Ephemeral() results: unknown;
    }
    expect(metadataStore.ownMethod(Logs.prototype, "results")?.memberKind).toBe("field");
    expect([...metadataStore.ownMembers(Logs.prototype)]).toEqual(["results"]);
  });
});
