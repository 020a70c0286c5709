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

it("leaves out an app-only tool, which hosts keep from the model, and keeps one the model may see", () => {
  const schema = { type: "object" };
  const text = catalogueText([
    { name: "viewer_only", inputSchema: schema, _meta: { ui: { visibility: ["app"] } } },
    { name: "both", inputSchema: schema, _meta: { ui: { visibility: ["model", "app"] } } },
    { name: "other_meta", inputSchema: schema, _meta: { ui: { resourceUri: "ui://x" } } },
  ]);
  expect(JSON.parse(text).map((tool: { name: string }) => tool.name)).toEqual(["both", "other_meta"]);
});
