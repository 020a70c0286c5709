import { describe, expect, it } from "vitest";
import { memberKindOf } from "../../../src/decorators/member-kind.js";

class Sample {
  value = 1;
  method() {}
  get total() {
    return 1;
  }
  set name(_value: string) {}
}
const descriptor = (property: string) => Object.getOwnPropertyDescriptor(Sample.prototype, property);

describe("memberKindOf", () => {
  it("tells methods, getters, setters and fields apart from their descriptor", () => {
    expect(memberKindOf(descriptor("method"))).toBe("method");
    expect(memberKindOf(descriptor("total"))).toBe("getter");
    expect(memberKindOf(descriptor("name"))).toBe("setter");
    // A field decorator gets no descriptor at all.
    expect(memberKindOf(undefined)).toBe("field");
  });

  it("calls a descriptor holding a non-function value a field", () => {
    expect(memberKindOf({ value: 42, writable: true })).toBe("field");
  });
});
