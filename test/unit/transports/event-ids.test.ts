import { describe, expect, it } from "vitest";
import { compareEntryIds, parseEventId } from "../../../src/transports/event-ids.js";

describe("parseEventId", () => {
  it("splits at the last bar, so a stream id may itself hold bars", () => {
    expect(parseEventId("session.1|1700000000000-0")).toEqual({
      streamId: "session.1",
      entryId: "1700000000000-0",
    });
    expect(parseEventId("a|b|c|5-12")).toEqual({ streamId: "a|b|c", entryId: "5-12" });
  });

  it("refuses ids with no stream, no entry, or an entry that is not <ms>-<seq>", () => {
    for (const bad of [
      "",
      "|1-0",
      "s|",
      "s",
      "s|1",
      "s|-1",
      "s|1-",
      "s|a-1",
      "s|1-0-0",
      `s|${"9".repeat(21)}-0`,
    ])
      expect(parseEventId(bad), bad).toBeUndefined();
  });
});

describe("compareEntryIds", () => {
  it("orders by milliseconds then sequence, as numbers, beyond what a double holds", () => {
    const sorted = ["10-10", "9-0", "10-2", "18446744073709551615-1", "18446744073709551615-0"].sort(
      compareEntryIds,
    );
    expect(sorted).toEqual(["9-0", "10-2", "10-10", "18446744073709551615-0", "18446744073709551615-1"]);
    expect(compareEntryIds("9007199254740993-0", "9007199254740992-0")).toBe(1);
    expect(compareEntryIds("3-4", "3-4")).toBe(0);
  });
});
