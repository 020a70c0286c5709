// Runs every benchmark, one process each (so one's heap never skews another's), in turn.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const benches = [
  "overhead",
  "pagination",
  "adaptive",
  "cursors",
  "cache",
  "budget",
  "ephemeral",
  "startup",
  "scale-out",
  "stateless-http",
  "shared-sessions",
  "session-heap",
  "context",
  "tables",
];
let failed = 0;
for (const name of benches) {
  const file = `${here}${name}.bench.js`;
  if (!existsSync(file)) continue;
  console.log(`\n## ${name}\n`);
  const run = spawnSync(process.execPath, ["--expose-gc", file], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
