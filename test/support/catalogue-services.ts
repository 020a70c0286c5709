import type { IncomingMessage } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { McpModule, McpService, Prompt, Resource, Tool } from "frugal-mcp";
import { vi } from "vitest";
import { z } from "zod";

const isAdmin = (auth: AuthInfo | undefined) => auth?.scopes.includes("admin") ?? false;

/**
 * Operations of the catalogue tests: one hidden from all but admins (by scope), one only
 * Alice sees (by owner, answered asynchronously), and open ones; a prompt and resources
 * hidden the same ways.
 */
@McpService()
export class CatalogueService {
  @Tool({ description: "Echo text back", input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return { text };
  }

  @Tool({ description: "Purge every cached page of the site", visibleTo: ({ auth }) => isAdmin(auth) })
  purgeCache() {
    return { purged: true };
  }

  @Tool({
    description: "Read Alice's diary",
    visibleTo: async ({ owner }) => owner === "principal:alice",
  })
  readDiary() {
    return { entries: 3 };
  }

  @Resource("config://site", { description: "Site settings" })
  siteConfig() {
    return { theme: "dark" };
  }

  @Resource("secret://plans", {
    description: "Alice's plans",
    visibleTo: ({ owner }) => owner === "principal:alice",
  })
  plans() {
    return "world domination";
  }

  @Resource("notes://{id}", {
    description: "A note of Alice's",
    visibleTo: ({ owner }) => owner === "principal:alice",
    list: () => [{ uri: "notes://1", name: "first note" }],
  })
  note({ id }: { id: string }) {
    return `note ${id}`;
  }

  @Prompt({ description: "Greet someone" })
  greet() {
    return "Hello!";
  }

  @Prompt({ description: "Brief an administrator", visibleTo: ({ auth }) => isAdmin(auth) })
  adminBrief() {
    return "Everything is on fire.";
  }
}

@McpModule({ services: [CatalogueService] })
export class CatalogueModule {}

const inAnHour = () => Date.now() / 1000 + 3600;

/** Two principals: Alice (an admin) and Bob. */
export const PRINCIPALS: Record<string, AuthInfo> = {
  "alice-token": { token: "alice-token", clientId: "alice", scopes: ["admin"], expiresAt: inAnHour() },
  "bob-token": { token: "bob-token", clientId: "bob", scopes: ["read"], expiresAt: inAnHour() },
};

/** `authenticate` of the HTTP listener: the bearer token's principal, or nobody (401). */
export const authenticateBearer = (req: IncomingMessage) =>
  PRINCIPALS[req.headers.authorization?.replace(/^Bearer /, "") ?? ""];

const LIST_CHANGED = {
  tools: ToolListChangedNotificationSchema,
  prompts: PromptListChangedNotificationSchema,
  resources: ResourceListChangedNotificationSchema,
};

/** Resolves at the next list-changed notification of `list` the client receives (the test awaits it: no sleeps). */
export function listChanged(client: Client, list: keyof typeof LIST_CHANGED): Promise<void> {
  return new Promise((resolve) => {
    client.setNotificationHandler(LIST_CHANGED[list], () => resolve());
  });
}

/** The names of the tools the client sees. */
export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/**
 * Resolves once every client's standalone GET stream (Streamable HTTP) takes notifications:
 * the SDK client opens it on its own after `initialize`, and a notification sent before it is
 * open reaches nobody. `touch` sends one (it must notify the tools list); it is sent again
 * while any client has not heard it yet.
 */
export async function streamsOpen(clients: readonly Client[], touch: () => Promise<void>): Promise<void> {
  const heard = clients.map((client) => {
    let done = false;
    void listChanged(client, "tools").then(() => {
      done = true;
    });
    return () => done;
  });
  await vi.waitFor(
    async () => {
      if (!heard.every((done) => done())) {
        await touch();
        throw new Error("a GET stream is not open yet");
      }
    },
    { timeout: 10_000, interval: 25 },
  );
}
