import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { ProviderEntry } from "../decorators/mcp-module.decorator.js";
import type { McpAppOptions } from "../runtime/app-options.js";
import type { McpApp } from "../runtime/mcp-app.js";
import { McpFactory } from "../runtime/mcp-factory.js";

/** Options of `createTestClient`. */
export interface TestClientOptions extends Partial<McpAppOptions> {
  /** Providers that replace the modules' own for this test (`{ provide: Repo, useValue: fake }`). */
  providers?: ProviderEntry[];
  /** Capabilities the test client announces (e.g. `{ sampling: {}, elicitation: {} }`). */
  capabilities?: ClientCapabilities;
}

/** A connected SDK client, its app, and a way to open more sessions or close everything. */
export interface TestClient {
  readonly client: Client;
  readonly app: McpApp;
  /** Opens another session on the same app (another owner). */
  connect(capabilities?: ClientCapabilities): Promise<Client>;
  /** Closes every client and the app. */
  close(): Promise<void>;
}

/**
 * Builds an app from a module (with providers overridden) and connects a real SDK
 * `Client` to it over an in-memory transport, as NestJS testing modules do.
 *
 * @example
 * ```ts
 * const { client, close } = await createTestClient(AppModule, {
 *   providers: [{ provide: ArticlesRepo, useValue: new FakeRepo() }],
 * });
 * const result = await client.callTool({ name: "list_articles", arguments: { site: "a" } });
 * await close();
 * ```
 */
export async function createTestClient(
  rootModule: Function,
  options: TestClientOptions = {},
): Promise<TestClient> {
  const { capabilities, ...appOptions } = options;
  const app = await McpFactory.create(rootModule, { name: "test", version: "0.0.0", ...appOptions });
  const clients: Client[] = [];
  const connect = async (caps: ClientCapabilities = capabilities ?? {}) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connect(serverSide);
    const client = new Client({ name: "frugal-test-client", version: "0.0.0" }, { capabilities: caps });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };
  const client = await connect();
  return {
    client,
    app,
    connect,
    close: async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
      await app.close();
    },
  };
}
