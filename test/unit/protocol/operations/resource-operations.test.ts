import type { Resource } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { AppMetrics } from "../../../../src/metrics/app-metrics.js";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import type { ReadStored, RunOperation } from "../../../../src/protocol/calls/run-operation.js";
import type { ProtocolOperation } from "../../../../src/protocol/operations/operation.js";
import { resourceOperations } from "../../../../src/protocol/operations/resource-operations.js";
import { SUBSCRIBE_REFUSED } from "../../../../src/protocol/registrar-2025/stateless-session.js";
import { newSession } from "../../../../src/protocol/session.js";
import { UriTemplate } from "../../../../src/uri/uri-template.js";
import { catalogueOf } from "../../../support/unit-catalogue.js";

const article = {
  definition: {
    uri: "articles://{id}",
    where: "Articles.read",
    template: new UriTemplate("articles://{id}"),
    listing: { uriTemplate: "articles://{id}", name: "article" },
    list: async (): Promise<Resource[]> => [{ uri: "articles://1", name: "first" }],
    capabilities: new Map(),
  },
};
const broken = {
  definition: {
    uri: "logs://{day}",
    where: "Logs.read",
    template: new UriTemplate("logs://{day}"),
    listing: { uriTemplate: "logs://{day}", name: "logs" },
    list: async (): Promise<Resource[]> => {
      throw new Error("log index down");
    },
    capabilities: new Map(),
  },
};
const config = {
  definition: {
    uri: "config://app",
    where: "Config.read",
    template: undefined,
    listing: { uri: "config://app", name: "config" },
    capabilities: new Map(),
  },
};
const stored = {
  id: "x",
  uri: "ephemeral://search/x",
  name: "search results",
  mimeType: "application/json",
  size: 10,
  version: 2,
  createdAt: 0,
  expiresAt: 60_000,
};

function setup() {
  const errors: string[] = [];
  const metrics = new AppMetrics();
  const registry = {
    tools: new Map(),
    prompts: new Map(),
    staticResources: new Map([["config://app", config]]),
    templates: [article, broken],
  };
  const runtime = {
    registry,
    catalogue: catalogueOf(registry as never),
    listPageSize: 50,
    principalOf: (auth: { clientId: string }) => auth.clientId,
    metrics,
    logger: { debug() {}, info() {}, warn() {}, error: (m: string) => void errors.push(m) },
    ephemeral: { list: async (owner: string) => (owner === "session:s1" ? [stored] : []) },
  } as unknown as AppRuntime;
  const runs: unknown[] = [];
  const run: RunOperation = async (_session, operation, args, _extra, uri) => {
    runs.push({ where: (operation.definition as { where: string }).where, args, uri });
    return { contents: [] };
  };
  const readStored: ReadStored = async () => ({ contents: [{ uri: "stored", text: "" }] });
  const [list, templates, read, subscribe, unsubscribe] = resourceOperations(
    runtime,
    run,
    readStored,
  ) as ProtocolOperation[];
  return { errors, metrics, runs, list, templates, read, subscribe, unsubscribe };
}
const handle = (op: ProtocolOperation | undefined, params: unknown, stateless = false) => {
  const session = newSession(
    () => "s1",
    () => undefined,
    stateless,
  );
  const result = op?.handle(session, op.schema.parse({ method: op.method, params }), {} as RequestExtra);
  return { session, result };
};

describe("resources/list", () => {
  it("lists static resources, template listings and the caller's stored resources, skipping a failing source", async () => {
    const { list, errors, metrics } = setup();
    const { result } = handle(list, {});
    const { resources } = (await result) as { resources: Resource[] };
    expect(resources.map((r) => r.uri)).toEqual(["config://app", "articles://1", "ephemeral://search/x"]);
    expect(resources[2]).toMatchObject({
      name: "search results",
      size: 10,
      _meta: { version: 2, createdAt: "1970-01-01T00:00:00.000Z", expiresAt: "1970-01-01T00:01:00.000Z" },
    });
    expect(errors).toEqual(["resources/list: the list of logs://{day} (Logs.read) failed; listing the rest"]);
    expect(metrics.listFailures.get("logs://{day}")).toBe(1);
  });

  it("lists the templates", async () => {
    const { templates } = setup();
    expect(await handle(templates, {}).result).toEqual({
      resourceTemplates: [
        { uriTemplate: "articles://{id}", name: "article" },
        { uriTemplate: "logs://{day}", name: "logs" },
      ],
    });
  });
});

describe("resources/read", () => {
  it("runs the template that matches, with its variables and the URI", async () => {
    const { read, runs } = setup();
    await handle(read, { uri: "articles://42" }).result;
    expect(runs).toEqual([{ where: "Articles.read", args: { id: "42" }, uri: "articles://42" }]);
  });

  it("reads stored and unknown URIs from storage, and refuses an overlong URI before any lookup", async () => {
    const { read, runs } = setup();
    expect(await handle(read, { uri: "ephemeral://search/x" }).result).toEqual({
      contents: [{ uri: "stored", text: "" }],
    });
    expect(await handle(read, { uri: "chosen://by-a-handler" }).result).toEqual({
      contents: [{ uri: "stored", text: "" }],
    });
    await expect(handle(read, { uri: `articles://${"x".repeat(5000)}` }).result).rejects.toMatchObject({
      code: -32602,
      data: { maxLength: 4096 },
    });
    expect(runs).toEqual([]);
  });
});

describe("resources/subscribe", () => {
  it("keeps a session's subscriptions, and refuses them on a stateless request", async () => {
    const { subscribe, unsubscribe } = setup();
    const { session, result } = handle(subscribe, { uri: "config://app" });
    await result;
    expect([...session.subscriptions]).toEqual(["config://app"]);
    await unsubscribe?.handle(
      session,
      { method: "resources/unsubscribe", params: { uri: "config://app" } },
      {} as RequestExtra,
    );
    expect(session.subscriptions.size).toBe(0);
    await expect(handle(subscribe, { uri: "config://app" }, true).result).rejects.toThrow(
      expect.objectContaining({ code: -32601, message: expect.stringContaining(SUBSCRIBE_REFUSED) }),
    );
  });
});
