import "reflect-metadata";
import { resolve } from "node:path";
import { readAppConfig } from "../src/config/app-config.js";
import { runDemo } from "./run-demo.js";

// npm run demo [-- --html report.html] [-- --small]
// Starts the flagship in this process (with the same environment as `npm start`: DATABASE_URL,
// REDIS_URL, …) on a free port, and drives it over HTTP as a model would.
const args = process.argv.slice(2);
const unknown = args.filter(
  (arg, i) => arg.startsWith("--") && !["--html", "--small"].includes(arg) && args[i - 1] !== "--html",
);
if (unknown.length > 0) {
  process.stderr.write(`unknown option ${unknown.join(", ")}; use --html <file> and/or --small\n`);
  process.exit(2);
}
const htmlAt = args.indexOf("--html");
const htmlArg = htmlAt >= 0 ? args[htmlAt + 1] : undefined;
if (htmlAt >= 0 && (!htmlArg || htmlArg.startsWith("--"))) {
  process.stderr.write("--html needs a file name: npm run demo -- --html report.html\n");
  process.exit(2);
}
// `npm run` starts scripts in the package's directory; a relative name means where the user typed it.
const html = htmlArg && resolve(process.env.INIT_CWD ?? process.cwd(), htmlArg);
const config = readAppConfig(process.env);
if (args.includes("--small")) config.seed = { articles: 300, appLogLines: 5_000, accessLogLines: 2_000 };
// Framework warnings (no cursor secret for a demo) would interleave with the table.
process.env.FRUGAL_LOG_LEVEL ??= "error";
try {
  await runDemo({ config, html });
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
