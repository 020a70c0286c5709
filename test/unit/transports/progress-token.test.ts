import { describe, expect, it } from "vitest";
import {
  QUARANTINED_PROGRESS_TOKEN,
  quarantineProgressTokens,
} from "../../../src/transports/progress-token.js";

describe("quarantineProgressTokens", () => {
  it("moves tokens that are neither strings nor integers aside, in one message or a batch", () => {
    const single = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { _meta: { progressToken: 1.5, x: 1 } },
    };
    quarantineProgressTokens(single);
    expect(single.params._meta).toEqual({ x: 1, [QUARANTINED_PROGRESS_TOKEN]: 1.5 });
    const batch = [
      { params: { _meta: { progressToken: null } } },
      { params: { _meta: { progressToken: "ok" } } },
      { params: { _meta: { progressToken: 7 } } },
    ];
    quarantineProgressTokens(batch);
    expect(batch.map((m) => m.params._meta)).toEqual([
      { [QUARANTINED_PROGRESS_TOKEN]: null },
      { progressToken: "ok" },
      { progressToken: 7 },
    ]);
  });

  it("leaves anything else alone", () => {
    for (const body of [
      null,
      5,
      "x",
      [],
      [null, 1],
      { params: null },
      { params: { _meta: 5 } },
      { params: {} },
    ]) {
      const copy = structuredClone(body);
      quarantineProgressTokens(body);
      expect(body).toEqual(copy);
    }
  });
});
