/**
 * SEP-2243 header-mirrored tool parameters on a `protocol: "2026-07-28"` app over HTTP: a
 * property declared `x-mcp-header: "Region"` is listed with its declaration, and a 2026-07-28
 * `tools/call` must carry `Mcp-Param-Region` equal to the argument (plain, or as
 * `=?base64?…?=`), else it is refused 400 with -32020 naming the header. A 2025 client sends
 * no such header and is served. A bad declaration fails `McpFactory.create`, naming the tool.
 *
 *   npx vitest run test/e2e/param-headers.test.ts
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LOGGER, type McpApp, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Answer, body2026, headers2026, postRaw, recordingLogger } from "../support/front-door.js";
import { textOf } from "../support/raw-2026.js";

/** Runs of the tool: a refused request must not reach it. */
let runs = 0;

@McpService()
class WeatherService {
  @Tool({
    description: "The forecast of a region, mirrored into the Mcp-Param-Region header",
    input: { region: z.string().meta({ "x-mcp-header": "Region" }), n: z.number().int().optional() },
  })
  forecast({ region, n }: { region: string; n?: number }) {
    runs++;
    return `forecast for ${region}${n === undefined ? "" : ` x${n}`}`;
  }
}

@McpModule({ services: [WeatherService] })
class WeatherModule {}

/** One raw 2026-07-28 `tools/call` of `forecast` with `args`, and these `Mcp-Param-*` headers. */
function callForecast(url: string, args: Record<string, unknown>, params: Record<string, string> = {}) {
  return postRaw(url, body2026("tools/call", { name: "forecast", arguments: args }), {
    ...headers2026("tools/call", "forecast"),
    ...params,
  });
}

/** Refused before the tool ran: HTTP 400, JSON-RPC -32020, a message naming Mcp-Param-Region. */
function expectMismatch(answer: Answer, before: number) {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body?.error?.code, answer.text).toBe(-32020);
  expect(answer.body.error.message).toContain("Mcp-Param-Region");
  expect(runs, "the tool ran on a refused request").toBe(before);
}

describe("SEP-2243 Mcp-Param-* headers on a 2026-07-28 app over HTTP", () => {
  let app: McpApp;
  let url: string;
  beforeAll(async () => {
    app = await McpFactory.create(WeatherModule, {
      name: "weather",
      version: "1.0.0",
      protocol: "2026-07-28",
      providers: [{ provide: LOGGER, useValue: recordingLogger().logger }],
    });
    ({ url } = await app.listen({ transport: "http", port: 0 }));
  });
  afterAll(() => app.close());

  it("lists the property with its x-mcp-header declaration (raw 2026-07-28 tools/list)", async () => {
    const answer = await postRaw(url, body2026("tools/list", {}), headers2026("tools/list"));
    expect(answer.status, answer.text).toBe(200);
    const tool = answer.body?.result?.tools?.find((t: { name: string }) => t.name === "forecast");
    expect(tool, answer.text).toBeDefined();
    expect(tool.inputSchema.properties.region).toMatchObject({ type: "string", "x-mcp-header": "Region" });
    expect(tool.inputSchema.properties.n).not.toHaveProperty("x-mcp-header");
  });

  it("serves a call whose Mcp-Param-Region equals the argument", async () => {
    const answer = await callForecast(url, { region: "eu" }, { "Mcp-Param-Region": "eu" });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body?.result?.isError, answer.text).toBeFalsy();
    expect(textOf(answer.body.result)).toBe("forecast for eu");
  });

  it("refuses a call whose Mcp-Param-Region disagrees with the argument: 400, -32020", async () => {
    const before = runs;
    const answer = await callForecast(url, { region: "eu" }, { "Mcp-Param-Region": "us" });
    expectMismatch(answer, before);
    expect(answer.body.error.message).toContain('"us"');
  });

  it("refuses a call without the Mcp-Param-Region header: 400, -32020", async () => {
    const before = runs;
    expectMismatch(await callForecast(url, { region: "eu" }), before);
  });

  it("accepts the value as a Base64 sentinel (=?base64?ZXU=?= is eu)", async () => {
    const answer = await callForecast(url, { region: "eu", n: 2 }, { "Mcp-Param-Region": "=?base64?ZXU=?=" });
    expect(answer.status, answer.text).toBe(200);
    expect(textOf(answer.body?.result)).toBe("forecast for eu x2");
  });

  it("refuses a sentinel that is not canonical Base64 (=?base64?ZX!=?=): 400, -32020", async () => {
    const before = runs;
    expectMismatch(
      await callForecast(url, { region: "eu" }, { "Mcp-Param-Region": "=?base64?ZX!=?=" }),
      before,
    );
  });

  it("serves a v2 client pinned to 2026-07-28, which mirrors the argument into the header itself", async () => {
    const client = new Client(
      { name: "v2-client", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getProtocolEra()).toBe("modern");
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === "forecast")?.inputSchema.properties?.region;
    expect(listed).toMatchObject({ "x-mcp-header": "Region" });
    expect(textOf(await client.callTool({ name: "forecast", arguments: { region: "apac" } }))).toBe(
      "forecast for apac",
    );
    await client.close();
  });

  it("serves a 2025 client (SDK 1.x over Streamable HTTP) calling without the header", async () => {
    const transport = new HttpV1(new URL(url));
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    await client.connect(transport);
    const result = await client.callTool({ name: "forecast", arguments: { region: "eu" } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(textOf(result)).toBe("forecast for eu");
    await transport.terminateSession();
    await client.close();
  });
});

@McpService()
class ObjectHeaderService {
  @Tool({ input: { place: z.object({ city: z.string() }).meta({ "x-mcp-header": "Bad" }) } })
  locate({ place }: { place: { city: string } }) {
    return place.city;
  }
}

@McpModule({ services: [ObjectHeaderService] })
class ObjectHeaderModule {}

@McpService()
class BadNameService {
  @Tool({ input: { region: z.string().meta({ "x-mcp-header": "Bad Name" }) } })
  locate({ region }: { region: string }) {
    return region;
  }
}

@McpModule({ services: [BadNameService] })
class BadNameModule {}

describe("a bad x-mcp-header declaration fails start-up of a 2026-07-28 app", () => {
  const created: McpApp[] = [];
  afterAll(async () => {
    await Promise.allSettled(created.map((app) => app.close()));
  });

  const create = async (module: typeof ObjectHeaderModule) => {
    const app = await McpFactory.create(module, {
      name: "bad",
      version: "1.0.0",
      protocol: "2026-07-28",
      providers: [{ provide: LOGGER, useValue: recordingLogger().logger }],
    });
    created.push(app);
    return app;
  };

  it("on an object property, naming the tool and x-mcp-header", async () => {
    await expect(create(ObjectHeaderModule)).rejects.toThrow(
      /ObjectHeaderService\.locate.*x-mcp-header[\s\S]*string, integer or boolean/,
    );
  });

  it('with a name that is not an HTTP token ("Bad Name"), naming the tool and x-mcp-header', async () => {
    await expect(create(BadNameModule)).rejects.toThrow(/BadNameService\.locate.*x-mcp-header.*"Bad Name"/);
  });
});
