import { describe, expect, it } from "vitest";
import { ListenedUris, listenedUrisOf } from "../../../../src/protocol/registrar-2026/listened-uris.js";

describe("ListenedUris", () => {
  it("counts each stream's URIs and forgets them once per stream", () => {
    const listened = new ListenedUris();
    const first = listened.add(["config://app", "sites://a"]);
    const second = listened.add(["config://app"]);
    first();
    first(); // a second release changes nothing
    expect(listened.has("config://app")).toBe(true);
    expect(listened.has("sites://a")).toBe(false);
    second();
    expect([...listened.uris()]).toEqual([]);
  });

  it("reads the URIs of a subscriptions/listen body only", () => {
    const listen = {
      method: "subscriptions/listen",
      params: { notifications: { resourceSubscriptions: ["config://app", 42] } },
    };
    expect(listenedUrisOf(listen)).toEqual(["config://app"]);
    expect(listenedUrisOf({ method: "tools/call", params: {} })).toEqual([]);
    expect(listenedUrisOf(undefined)).toEqual([]);
  });
});
