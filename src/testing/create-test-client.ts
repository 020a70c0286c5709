import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { McpAppOptions } from "../app/app-options.js";
import type { McpApp } from "../app/mcp-app.js";
import type { ProviderEntry } from "../decorators/mcp-module.decorator.js";
import { McpFactory } from "../runtime/mcp-factory.js";

/** Options of `createTestClient`. */
export interface TestClientOptions extends Partial<McpAppOptions> {
  /** Providers that replace the modules' own for this test (`{ provide: Repo, useValue: fake }`). */
  providers?: ProviderEntry[] | undefined;
  /** Capabilities the test client announces (e.g. `{ sampling: {}, elicitation: {} }`). */
  capabilities?: ClientCapabilities | undefined;
}

/**
 * A connected SDK `Client` (use it directly), with its app, a way to open more sessions,
 * and a `close()` that closes every client and the app. `client` refers to itself, so
 * `const { client, close } = await createTestClient(…)` works too.
 */
export type TestClient = Client & {
  readonly client: Client;
  readonly app: McpApp;
  /** Opens another session on the same app (another owner). */
  connect(capabilities?: ClientCapabilities): Promise<Client>;
  /** Closes every client and the app. */
  close(): Promise<void>;
};

/**
 * Builds an app from a module (with providers overridden) and connects a real SDK
 * `Client` to it over an in-memory transport, as NestJS testing modules do.
 *
 * @example
 * ```ts
 * const client = await createTestClient(AppModule, {
 *   providers: [{ provide: ArticlesRepo, useValue: new FakeRepo() }],
 * });
 * const result = await client.callTool({ name: "list_articles", arguments: { site: "a" } });
 * await client.close(); // closes the app too
 * ```
 */
export async function createTestClient(
  rootModule: Function,
  options: TestClientOptions = {},
): Promise<TestClient> {
  const { capabilities, ...appOptions } = options;
  // The SDK's client side is loaded by tests only, not by every server importing frugal-mcp.
  const [{ Client: SdkClient }, { InMemoryTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/inMemory.js"),
  ]);
  const app = await McpFactory.create(rootModule, { name: "test", version: "0.0.0", ...appOptions });
  const clients: Client[] = [];
  const connect = async (caps: ClientCapabilities = capabilities ?? {}) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connect(serverSide);
    const client = new SdkClient({ name: "frugal-test-client", version: "0.0.0" }, { capabilities: caps });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };
  const client = await connect();
  const closeAll = async () => {
    // The prototype's close: the test client's own `close` (below) also closes the app.
    await Promise.allSettled(clients.map((c) => SdkClient.prototype.close.call(c)));
    await app.close();
  };
  return Object.assign(client, { client, app, connect, close: closeAll });
}
