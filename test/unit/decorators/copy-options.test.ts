import { describe, expect, it } from "vitest";
import { copyList, copyOptions } from "../../../src/decorators/copy-options.js";

describe("copyOptions", () => {
  it("records a frozen copy, so later changes to the caller's object do not reach it", () => {
    const options: { ttl: number } = { ttl: 1000 };
    const copy = copyOptions(options);
    options.ttl = 5;
    expect(copy).toEqual({ ttl: 1000 });
    expect(copy).not.toBe(options);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(options)).toBe(false);
  });

  it("records anything but a plain object as given, for the start-up checks to refuse", () => {
    const list = ["a"];
    expect(copyOptions("list")).toBe("list");
    expect(copyOptions(list)).toBe(list);
    expect(copyOptions(null)).toBeNull();
  });
});

describe("copyList", () => {
  it("copies and freezes an array, and passes anything else through", () => {
    const events = ["articles.changed"];
    const copy = copyList(events);
    events.push("other");
    expect(copy).toEqual(["articles.changed"]);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(copyList("articles.changed")).toBe("articles.changed");
  });
});
