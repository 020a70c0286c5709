import { MemorySessionStore } from "frugal-mcp";
import { describe } from "vitest";
import { sessionStoreContract } from "./session-store-contract.js";

describe("MemorySessionStore", () => {
  sessionStoreContract(
    async () => new MemorySessionStore(),
    (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  );
});
