import { expect, it } from "vitest";
import { catalogueText } from "../../../src/metrics/catalogue-text.js";

it("keeps what a model reads of each tool: its name, description and input schema, nothing for the host", () => {
  const text = catalogueText([
    {
      name: "ping",
      description: "Ping",
      inputSchema: { type: "object" },
      title: "Ping!",
      annotations: { readOnlyHint: true },
      outputSchema: { type: "object" },
      _meta: { "anthropic/maxResultSizeChars": 16000 },
    } as never,
    { name: "bare", inputSchema: { type: "object" } },
  ]);
  expect(JSON.parse(text)).toEqual([
    { name: "ping", description: "Ping", inputSchema: { type: "object" } },
    { name: "bare", inputSchema: { type: "object" } },
  ]);
});
