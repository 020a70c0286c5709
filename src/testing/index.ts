// `frugal-mcp/testing`: helpers for users' own tests.
import "reflect-metadata";

export { createTestClient, type TestClient, type TestClientOptions } from "./create-test-client.js";
