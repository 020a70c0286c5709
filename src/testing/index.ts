// `frugal-mcp/testing`: helpers for users' own tests (no test runner needed; the vitest
// matchers are at `frugal-mcp/testing/vitest`).
import "reflect-metadata";

export type { ListedTool } from "../metrics/catalogue-text.js";
export { catalogueOf, type ToolLister } from "./catalogue-of.js";
export { createTestClient, type TestClient, type TestClientOptions } from "./create-test-client.js";
export { tokensOf } from "./tokens-of.js";
