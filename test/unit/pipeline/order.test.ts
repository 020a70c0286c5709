import { describe, expect, it } from "vitest";
import { assembleOrder, PIPELINE_ORDER } from "../../../src/pipeline/order.js";

describe("PIPELINE_ORDER", () => {
  it("names only the kernel's own places", () => {
    expect(PIPELINE_ORDER).toEqual(["validate", "interceptors", "decodeCursor", "shape", "paginate"]);
  });
});

describe("assembleOrder", () => {
  const builtIn = [
    { place: "budget", after: "shape" },
    { place: "cache", before: "shape" },
    { place: "spill", before: "budget" },
  ];

  it("sets each declared place in, giving the documented order whatever order they come in", () => {
    const expected = [
      "validate",
      "interceptors",
      "decodeCursor",
      "cache",
      "shape",
      "spill",
      "budget",
      "paginate",
    ];
    expect(assembleOrder(builtIn)).toEqual(expected);
    expect(assembleOrder([...builtIn].reverse())).toEqual(expected);
    expect(assembleOrder([builtIn[2], builtIn[0], builtIn[1]] as typeof builtIn)).toEqual(expected);
  });

  it("puts places declared at one spot in the order of their names, and each once", () => {
    expect(
      assembleOrder([
        { place: "zeta", after: "interceptors" },
        { place: "alpha", after: "interceptors" },
        { place: "alpha", after: "interceptors" },
        { place: "late", before: "shape" },
        { place: "early", before: "shape" },
      ]),
    ).toEqual([
      "validate",
      "interceptors",
      "alpha",
      "zeta",
      "decodeCursor",
      "early",
      "late",
      "shape",
      "paginate",
    ]);
  });

  it("leaves out a place whose anchor nobody declares", () => {
    expect(assembleOrder([{ place: "spill", before: "budget" }])).toEqual(PIPELINE_ORDER);
  });
});
