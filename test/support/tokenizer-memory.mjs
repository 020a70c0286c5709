// Child process of test/e2e/tokenizer-memory.test.ts (plain JS on a compiled package, `npm run
// build` first): the resident memory the default token counter adds, in a process that has
// already loaded what a server loads (the SDK, zod, frugal-mcp). Prints one JSON object.
//   node test/support/tokenizer-memory.mjs [path to the package's dist/index.js]
import "@modelcontextprotocol/sdk/server/index.js";
import "@modelcontextprotocol/sdk/server/stdio.js";
import "zod";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const entry = pathToFileURL(resolve(process.argv[2] ?? "dist/index.js")).href;
const { BpeTokenCounter } = await import(entry);
const settle = () => new Promise((done) => setTimeout(done, 300));
await settle();
const before = process.memoryUsage().rss;
const counter = new BpeTokenCounter();
const text = JSON.stringify(
  Array.from({ length: 50 }, (_, id) => ({ id, title: `Row ${id}`, tags: ["a", "b"] })),
);
const counted = await counter.count(text, 2000);
await settle();
const after = process.memoryUsage().rss;
console.log(JSON.stringify({ addedMiB: (after - before) / 2 ** 20, tokens: counted.tokens }));
