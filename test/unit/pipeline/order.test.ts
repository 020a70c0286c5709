import { describe, expect, it } from "vitest";
import { assembleOrder, PIPELINE_ORDER, type PlaceDeclaration } from "../../../src/pipeline/order.js";

describe("PIPELINE_ORDER", () => {
  it("names only the kernel's own places", () => {
    expect(PIPELINE_ORDER).toEqual(["validate", "interceptors", "shape"]);
  });
});

describe("assembleOrder", () => {
  // What the built-in capabilities declare (`@Paginated` two places, `@Cached`, `@Budget`, `@Ephemeral` one each).
  const builtIn: PlaceDeclaration[] = [
    { place: "budget", after: "shape" },
    { place: "cache", before: "shape" },
    { place: "decodeCursor", after: "interceptors", innermost: true },
    { place: "paginate", after: "shape", innermost: true },
    { place: "spill", before: "budget" },
  ];
  const documented = [
    "validate",
    "interceptors",
    "decodeCursor",
    "cache",
    "shape",
    "spill",
    "budget",
    "paginate",
  ];

  it("sets each declared place in, giving the documented order whatever order they come in", () => {
    expect(assembleOrder(builtIn)).toEqual(documented);
    expect(assembleOrder([...builtIn].reverse())).toEqual(documented);
    expect(
      assembleOrder([builtIn[4], builtIn[0], builtIn[3], builtIn[1], builtIn[2]] as PlaceDeclaration[]),
    ).toEqual(documented);
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
    ).toEqual(["validate", "interceptors", "alpha", "zeta", "early", "late", "shape"]);
  });

  it("sets an innermost place inside the others declared at its spot, whatever their names", () => {
    // As when the pagination places were the kernel's own: a user's place after "interceptors"
    // sees the cursor before it is decoded, one after "shape" the page, not the handler's rows.
    expect(
      assembleOrder([
        ...builtIn,
        { place: "audit", after: "interceptors" },
        { place: "zAudit", after: "interceptors" },
        { place: "zCount", after: "shape" },
        { place: "aCount", after: "shape" },
      ]),
    ).toEqual([
      "validate",
      "interceptors",
      "audit",
      "zAudit",
      "decodeCursor",
      "cache",
      "shape",
      "aCount",
      "spill",
      "budget",
      "zCount",
      "paginate",
    ]);
  });

  it("keeps what is set next to a place together with it, whatever the names", () => {
    // "cost" sits before "budget", itself after "shape": "paginate", after "shape" too, goes after both.
    expect(assembleOrder([...builtIn, { place: "cost", before: "budget" }])).toEqual([
      "validate",
      "interceptors",
      "decodeCursor",
      "cache",
      "shape",
      "cost",
      "spill",
      "budget",
      "paginate",
    ]);
    expect(assembleOrder([...builtIn, { place: "afterBudget", after: "budget" }])).toEqual([
      ...documented.slice(0, -1),
      "afterBudget",
      "paginate",
    ]);
  });

  it("leaves out a place whose anchor nobody declares, and never declares a kernel place again", () => {
    expect(assembleOrder([{ place: "spill", before: "budget" }])).toEqual(PIPELINE_ORDER);
    expect(assembleOrder([{ place: "shape", after: "validate" }])).toEqual(PIPELINE_ORDER);
    expect(
      assembleOrder([
        { place: "a", after: "b" },
        { place: "b", after: "a" },
      ]),
    ).toEqual(PIPELINE_ORDER);
  });
});
