// Child process of test/e2e/lazy-imports.test.ts (plain JS on the compiled package, `npm run
// build` first): which heavy packages a frugal-mcp process has loaded, step by step. ESM
// loads are seen by a module hook, CommonJS ones in the require cache. Prints one JSON
// object: per step, which of HEAVY are loaded.
import { createRequire, register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const HEAVY = {
  tokenizer: /\/gpt-tokenizer\//,
  re2: /\/re2-wasm\//,
  mingo: /\/mingo\//,
  ioredis: /\/ioredis\//,
  http: /@modelcontextprotocol\/sdk\/dist\/esm\/server\/streamableHttp\.js$/,
  pg: /\/node_modules\/pg\//,
  s3: /\/@aws-sdk\//,
  sdkClient: /@modelcontextprotocol\/sdk\/dist\/esm\/client\/index\.js$/,
  sdkV2: /@modelcontextprotocol\/(server|node)\//,
};

const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }
`;
const esmLoaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on("message", (url) => esmLoaded.add(url));
port1.unref();
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
  data: { port: port2 },
  transferList: [port2],
});
const requireCache = createRequire(import.meta.url).cache;

const steps = {};
/** Which heavy packages are loaded now (after letting the hook's messages arrive). */
async function snapshot(step) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  const urls = [...esmLoaded, ...Object.keys(requireCache)];
  steps[step] = Object.fromEntries(
    Object.entries(HEAVY).map(([name, pattern]) => [name, urls.some((url) => pattern.test(url))]),
  );
}

// Loaded after the hook is registered, so that it sees them.
await import("reflect-metadata");
const { z } = await import("zod");
const frugal = await import("frugal-mcp");
const { createTestClient } = await import("frugal-mcp/testing");
const { Budget, McpModule, McpService, RedisCache, Resource, Tool } = frugal;

/** Applies method decorators the way TypeScript's legacy decorators do. */
function decorate(type, member, ...decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(type.prototype, member);
  for (const decorator of decorators.reverse()) decorator(type.prototype, member, descriptor);
}
const text = (result) => result.content?.[0]?.text ?? "";

// 1. The README quick start: a tool and a resource template, no budget, over a client.
class NotesService {
  listNotes() {
    return { notes: [{ id: "welcome", title: "Welcome" }] };
  }
  note({ id }) {
    return { id };
  }
}
decorate(
  NotesService,
  "listNotes",
  Tool({ description: "List notes", input: { tag: z.string().optional() } }),
);
decorate(NotesService, "note", Resource("notes://{id}", { mimeType: "application/json" }));
McpService()(NotesService);
class NotesModule {}
McpModule({ services: [NotesService] })(NotesModule);
await snapshot("imported");
const notes = await createTestClient(NotesModule);
await notes.client.listTools();
await notes.client.callTool({ name: "list_notes", arguments: {} });
await notes.client.readResource({ uri: "notes://welcome" });
await snapshot("quickstart");
await notes.close();

// 2. A budgeted tool: the tokenizer loads (in the background after start-up, or for the call).
class RowsService {
  rows() {
    return Array.from({ length: 20 }, (_, i) => ({ id: i }));
  }
}
decorate(RowsService, "rows", Tool({ description: "Rows" }), Budget(2000));
McpService()(RowsService);
class RowsModule {}
McpModule({ services: [RowsService] })(RowsModule);
const rows = await createTestClient(RowsModule);
const counted = await rows.client.callTool({ name: "rows", arguments: {} });
// Uniform rows read as a table (a header line, then one line per row).
if (!text(counted).endsWith("\n18\n19")) throw new Error(`rows: ${JSON.stringify(counted)}`);
await snapshot("budgeted");
await rows.close();

// 3. search_resource: RE2 loads on the first regular-expression search, not before.
class DocsService {
  lines() {
    return Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
  }
  items() {
    return Array.from({ length: 50 }, (_, i) => ({ id: i, odd: i % 2 === 1 }));
  }
}
decorate(DocsService, "lines", Resource("docs://lines", { mimeType: "text/plain" }));
decorate(DocsService, "items", Resource("docs://items", { mimeType: "application/json" }));
McpService()(DocsService);
class DocsModule {}
McpModule({ services: [DocsService] })(DocsModule);
const docs = await createTestClient(DocsModule, { ephemeral: { tools: true } });
const literal = await docs.client.callTool({
  name: "search_resource",
  arguments: { uri: "docs://lines", pattern: "line 4" },
});
if (!text(literal).includes("line 42")) throw new Error(`literal search: ${JSON.stringify(literal)}`);
await snapshot("literalSearch");
const regex = await docs.client.callTool({
  name: "search_resource",
  arguments: { uri: "docs://lines", pattern: "^line 4[0-9]$", regex: true },
});
if (!text(regex).includes("line 49")) throw new Error(`regex search: ${JSON.stringify(regex)}`);
await snapshot("regexSearch");
// query_resource: mingo loads on the first query with a where, not before.
const queried = await docs.client.callTool({
  name: "query_resource",
  arguments: { uri: "docs://items", where: { odd: true }, limit: 1 },
});
if (queried.structuredContent?.total !== 25) throw new Error(`query: ${JSON.stringify(queried)}`);
await snapshot("query");
await docs.close();

// 4. A Redis provider: ioredis loads when one is constructed.
const cache = new RedisCache({ url: "redis://127.0.0.1:1" });
await snapshot("redisConstructed");
await cache.close();

// 5. Streamable HTTP: the SDK's transport loads once a handler is made.
const app = await frugal.McpFactory.create(NotesModule, { name: "notes", version: "1.0.0" });
await snapshot("appCreated");
app.httpHandler();
await snapshot("httpHandler");
await app.close();

process.stdout.write(`${JSON.stringify(steps)}\n`);
