/**
 * The context bench's data: issue records and log lines, generated from a fixed seed so
 * every run (and every contender) reads the same bytes. Full size: 20,000 issues (one of
 * which carries a 357 KiB crash log in its body) and 200,000 log lines; small size (CI):
 * 2,000 issues and 20,000 lines, same shapes.
 */

/** Sizes of one run. */
export interface DataSize {
  readonly issues: number;
  readonly logLines: number;
}

export const FULL: DataSize = { issues: 20_000, logLines: 200_000 };
export const SMALL: DataSize = { issues: 2_000, logLines: 20_000 };

export const LABELS = [
  "bug",
  "feature",
  "docs",
  "performance",
  "security",
  "ui",
  "api",
  "build",
  "question",
  "regression",
] as const;
/** How often each label is drawn (same order as LABELS). */
const LABEL_WEIGHTS = [30, 22, 10, 9, 5, 8, 9, 4, 6, 3];

export interface Issue {
  id: number;
  title: string;
  state: "open" | "closed";
  labels: string[];
  author: string;
  createdAt: string;
  updatedAt: string;
  comments: number;
  body: string;
}

export interface LogLine {
  seq: number;
  /** Epoch milliseconds; strictly increasing with `seq`. */
  at: number;
  level: "DEBUG" | "INFO" | "WARN" | "ERROR";
  service: string;
  message: string;
}

/** Everything a run serves, plus the facts the tasks ask about. */
export interface ContextData {
  readonly size: DataSize;
  /** Issues by id order (ids 1…n). */
  readonly issues: readonly Issue[];
  /** Log lines by seq (0…n-1), oldest first. */
  readonly logs: readonly LogLine[];
  /** The 50 lines that arrive after the first read of the tail task. */
  readonly newLogs: readonly LogLine[];
  /** The issue whose body is the 357 KiB crash log. */
  readonly longIssueId: number;
  /** The one line of that crash log containing "FATAL". */
  readonly fatalLine: string;
  /** The line the search-with-context task looks for (its req id is unique). */
  readonly targetSeq: number;
  readonly targetReq: string;
  /** The lookup task's issue. */
  readonly lookupId: number;
}

/** Bytes of the long field (357 KiB). */
export const LONG_FIELD_BYTES = 357 * 1024;
const NOW_ISSUES = Date.UTC(2026, 5, 30);
const LOG_START = Date.UTC(2026, 5, 27);
/** Lines are 1.2 s apart on average: a five-minute window holds 250 of them. */
const LOG_STEP_MS = 1200;

/** mulberry32: a small seeded generator, the same numbers on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit hash of `n` (splitmix-style), for per-line values independent of generation order. */
function mix(n: number): number {
  let h = (n + 0x9e3779b9) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const VERBS = ["Fix", "Crash in", "Slow", "Wrong output from", "Support", "Document", "Flaky", "Refactor"];
const COMPONENTS = [
  "the parser",
  "cursor pagination",
  "the HTTP transport",
  "session resume",
  "the cache layer",
  "token budgets",
  "the CLI",
  "schema validation",
  "Redis storage",
  "the S3 adapter",
  "log tailing",
  "the build",
];
const PROBLEMS = [
  "on large inputs",
  "after reconnect",
  "with unicode names",
  "under load",
  "on Windows",
  "when the clock skews",
  "in strict mode",
  "for empty results",
  "with nested arrays",
  "after upgrade",
];
const SENTENCES = [
  "Steps to reproduce are attached below and fail on every run.",
  "The expected behaviour is described in the design notes but the implementation differs.",
  "We see this in production about once an hour under normal traffic.",
  "A workaround is to restart the worker, which is not acceptable for long sessions.",
  "The stack trace points at the page shaping code and then into the serializer.",
  "This started after the last minor release; the previous one was fine.",
  "Users on the free plan hit it more often because their budgets are smaller.",
  "Memory grows steadily until the process is killed by the orchestrator.",
  "The logs show a request timeout right before the connection is dropped.",
  "Please add a regression test so that it does not come back.",
  "I can take this one if nobody else is working on it.",
  "Related to the discussion in the planning thread last week.",
  "The fix looks small but touches the public API, so it needs a changelog entry.",
  "Benchmarks show a 30 percent slowdown on the large fixture.",
];
const USERS = ["ada", "grace", "linus", "barbara", "ken", "margaret", "dennis", "frances", "edsger", "alan"];
const SERVICES = ["api", "auth", "billing", "search", "worker", "gateway"] as const;
const ROUTES = ["/v1/orders", "/v1/users", "/v1/invoices", "/v1/search", "/v1/carts"] as const;

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

function drawLabels(random: () => number): string[] {
  const total = LABEL_WEIGHTS.reduce((a, b) => a + b, 0);
  const count = random() < 0.15 ? 0 : random() < 0.6 ? 1 : random() < 0.8 ? 2 : 3;
  const labels = new Set<string>();
  for (let i = 0; i < count; i++) {
    let roll = random() * total;
    let at = 0;
    while (roll >= (LABEL_WEIGHTS[at] ?? 0)) roll -= LABEL_WEIGHTS[at++] ?? 0;
    labels.add(LABELS[at] as string);
  }
  return LABELS.filter((label) => labels.has(label));
}

function makeIssue(id: number, random: () => number): Issue {
  const created = NOW_ISSUES - Math.floor(random() * 730 * 86_400_000);
  const updated = created + Math.floor(random() * Math.min(120 * 86_400_000, NOW_ISSUES - created));
  const labels = drawLabels(random);
  // About one title in fifty says "timeout"; about one body in five mentions a timeout too.
  const problem = random() < 0.02 ? "with a timeout" : pick(random, PROBLEMS);
  const title = `${pick(random, VERBS)} ${pick(random, COMPONENTS)} ${problem}`;
  const sentences = 4 + Math.floor(random() * 8);
  const body: string[] = [];
  for (let i = 0; i < sentences; i++) body.push(pick(random, SENTENCES));
  if (labels.includes("security") && random() < 0.4)
    body.push(`Tracked as CVE-2026-${String(1000 + Math.floor(random() * 9000))}.`);
  return {
    id,
    title,
    state: random() < 0.375 ? "open" : "closed",
    labels,
    author: pick(random, USERS),
    createdAt: new Date(created).toISOString(),
    updatedAt: new Date(updated).toISOString(),
    comments: Math.floor(random() ** 2 * 40),
    body: body.join(" "),
  };
}

/** A crash log of `LONG_FIELD_BYTES` characters, lines of about 70; one line (past the first 100 kB) says FATAL. */
function crashLog(random: () => number): { text: string; fatal: string } {
  const fatal = "2026-06-12T08:41:07.311Z [worker-7] FATAL heap limit reached in page shaper (rss=3.9GiB)";
  const lines: string[] = [];
  let size = 0;
  let fatalWritten = false;
  for (let i = 0; size < LONG_FIELD_BYTES; i++) {
    const ms = Date.UTC(2026, 5, 12, 8, 0, 0) + i * 37;
    const thread = Math.floor(random() * 12);
    const level = pick(random, ["DEBUG", "INFO", "WARN"]);
    let line = `${new Date(ms).toISOString()} [worker-${thread}] ${level} shaped page ${Math.floor(random() * 1e6)} in ${Math.floor(random() * 900)}ms`;
    if (!fatalWritten && size > LONG_FIELD_BYTES * 0.62) {
      line = fatal;
      fatalWritten = true;
    }
    lines.push(line);
    size += line.length + 1;
  }
  const text = lines.join("\n").slice(0, LONG_FIELD_BYTES);
  return { text, fatal };
}

/** Line `seq` of the log (a pure function of `seq`, so the new lines continue the same series). */
export function logLine(seq: number, start = LOG_START): LogLine {
  const h = mix(seq);
  const roll = h % 100;
  const level = roll < 2 ? "ERROR" : roll < 10 ? "WARN" : roll < 80 ? "INFO" : "DEBUG";
  const service = SERVICES[(h >>> 8) % SERVICES.length] as string;
  const req = `req=${(mix(seq ^ 0x5bd1e995) >>> 0).toString(16).padStart(8, "0")}`;
  const n = (h >>> 12) % 100_000;
  const ms = (h >>> 3) % 3000;
  const route = ROUTES[(h >>> 20) % ROUTES.length];
  let message: string;
  if (level === "ERROR")
    message =
      service === "billing"
        ? `${req} payment ${n} declined: card expired`
        : `${req} upstream timeout after ${ms}ms calling ${SERVICES[(h >>> 16) % SERVICES.length]}`;
  else if (level === "WARN")
    message =
      (h >>> 24) % 2 === 0
        ? `${req} slow request ${route}/${n} took ${ms}ms`
        : `${req} retrying job ${n} (attempt ${2 + ((h >>> 26) % 3)})`;
  else if (level === "INFO")
    message =
      service === "auth" ? `${req} user ${n} logged in` : `${req} GET ${route}/${n} 200 in ${ms % 200}ms`;
  else message = `${req} cache ${(h >>> 24) % 3 === 0 ? "miss" : "hit"} for key ${service}:${n}`;
  return { seq, at: start + seq * LOG_STEP_MS + (h % 1000), level, service, message };
}

/** A log line as text, the form a person (or model) reads: `2026-06-27T00:00:00.123Z INFO api req=… …`. */
export function formatLine(line: LogLine): string {
  return `${new Date(line.at).toISOString()} ${line.level} ${line.service} ${line.message}`;
}

/** Generates a run's data (about a second at full size). */
export function generateData(size: DataSize): ContextData {
  const random = seeded(24);
  const issues: Issue[] = [];
  for (let id = 1; id <= size.issues; id++) issues.push(makeIssue(id, random));
  const longIssueId = Math.floor(size.issues * 0.2121);
  const { text, fatal } = crashLog(seeded(357));
  const long = issues[longIssueId - 1] as Issue;
  Object.assign(long, {
    title: "Crash in the page shaper on large inputs",
    state: "closed",
    labels: ["bug"],
    body: text,
  });
  const logs: LogLine[] = [];
  for (let seq = 0; seq < size.logLines; seq++) logs.push(logLine(seq));
  const newLogs: LogLine[] = [];
  for (let seq = size.logLines; seq < size.logLines + 50; seq++) newLogs.push(logLine(seq));
  // An ERROR line about 60 % into the log whose req id appears nowhere else.
  let targetSeq = Math.floor(size.logLines * 0.6);
  const reqOf = (line: LogLine) => line.message.slice(0, 12);
  const counts = new Map<string, number>();
  for (const line of logs) counts.set(reqOf(line), (counts.get(reqOf(line)) ?? 0) + 1);
  while (
    (logs[targetSeq] as LogLine).level !== "ERROR" ||
    counts.get(reqOf(logs[targetSeq] as LogLine)) !== 1
  )
    targetSeq++;
  return {
    size,
    issues,
    logs,
    newLogs,
    longIssueId,
    fatalLine: fatal,
    targetSeq,
    targetReq: reqOf(logs[targetSeq] as LogLine),
    lookupId: Math.floor(size.issues * 0.6173),
  };
}

/** The time of the server clock before the new lines arrive, and after. */
export function clockTimes(data: ContextData): { before: number; after: number } {
  const last = data.logs[data.logs.length - 1] as LogLine;
  const lastNew = data.newLogs[data.newLogs.length - 1] as LogLine;
  return { before: last.at + 500, after: lastNew.at + 500 };
}
