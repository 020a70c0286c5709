import { describe, expect, it } from "vitest";
import { metadataStore } from "../../../src/metadata/store.js";
import { checkPaginated, type PaginatedRecord } from "../../../src/pagination/check-pagination-options.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import type { PaginatedOptions } from "../../../src/pagination/paginated-options.js";
import type { CapabilityTarget } from "../../../src/pipeline/capability.js";
import { recordingLogger } from "../../support/unit-build.js";

const paginatedOf = (target: Function, property: string) =>
  metadataStore
    .ownMethod(target.prototype, property)
    ?.capabilities?.find((recorded) => recorded.capability === Paginated.capability)?.options as
    | PaginatedRecord
    | undefined;

describe("@Paginated", () => {
  it("records one key field as a list, with its options", () => {
    class S {
      @Paginated("id", { limit: 20, maxLimit: 50 }) list() {}
    }
    expect(paginatedOf(S, "list")).toEqual({ stableKey: ["id"], options: { limit: 20, maxLimit: 50 } });
  });

  it("copies a compound key and the options, so later changes to them are not recorded", () => {
    const key = ["updatedAt", "slug"];
    const options = { limit: 10 };
    class S {
      @Paginated(key, options) list() {}
    }
    key.push("id");
    options.limit = 99;
    const recorded = paginatedOf(S, "list");
    expect(recorded).toEqual({ stableKey: ["updatedAt", "slug"], options: { limit: 10 } });
    expect(Object.isFrozen(recorded?.stableKey)).toBe(true);
    expect(Object.isFrozen(recorded?.options)).toBe(true);
  });

  it("records a key of the wrong type as given, for the start-up check to refuse by name", () => {
    class S {
      @Paginated(42 as unknown as string) list() {}
    }
    expect(paginatedOf(S, "list")?.stableKey).toBe(42);
  });

  it("decides a tool's text format with @Tool's own, refusing a contradiction by name", () => {
    const { textFormat } = Paginated.capability;
    if (!textFormat) throw new Error("no textFormat hook");
    const target = { where: "Feed.list" } as CapabilityTarget;
    const spec = (options: PaginatedOptions) =>
      checkPaginated({ stableKey: ["id"], options }, { ...target, kind: "tool" });
    expect(textFormat(spec({}), undefined, target)).toBeUndefined();
    expect(textFormat(spec({ text: "json" }), undefined, target)).toBe("json");
    expect(textFormat(spec({ line: String }), undefined, target)).toBe("auto");
    expect(() => textFormat(spec({ text: "json" }), "auto", target)).toThrow(
      'Feed.list: @Tool has `text: "auto"` but @Paginated has `text: "json"`',
    );
    expect(() => textFormat(spec({ line: String }), "json", target)).toThrow("@Paginated has `line`");
  });

  it("declares two stages at places of their own, which build nothing without the app's pagination parts", () => {
    const { stages = [] } = Paginated.capability;
    expect(stages.map(({ place, after, innermost }) => ({ place, after, innermost }))).toEqual([
      { place: "decodeCursor", after: "interceptors", innermost: true },
      { place: "paginate", after: "shape", innermost: true },
    ]);
    const spec = checkPaginated({ stableKey: ["id"], options: {} }, {
      where: "Feed.list",
      kind: "tool",
    } as CapabilityTarget);
    const operation = {
      where: "Feed.list",
      kind: "tool",
      name: "list",
      serviceClass: Object,
      property: "list",
    } as const;
    const services = { resolve: () => undefined as never, logger: recordingLogger() };
    for (const stage of stages) expect(stage.create(spec, operation, services)).toBeUndefined();
  });
});
