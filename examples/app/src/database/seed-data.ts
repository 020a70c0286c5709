/** Deterministic data for the flagship: the same rows on every run, timed relative to `now`. */

export const SITES = ["tech", "food", "travel"] as const;
const TOPICS = ["pagination", "caching", "budgets", "cursors", "sessions", "transports", "schemas"];
const WORDS = (
  "the a model context token page cursor row key stable window budget cache spill result " +
  "server client tool resource prompt stream chunk slice owner session event"
).split(" ");
export const LEVELS = ["DEBUG", "INFO", "WARN", "ERROR"] as const;
const SERVICES = ["api", "auth", "billing", "search", "worker"] as const;
const ROUTES = ["/v1/orders", "/v1/users", "/v1/invoices", "/v1/search", "/v1/carts"] as const;

/** xorshift32: reproducible without a dependency. */
function randomFrom(seed: number): () => number {
  let state = seed | 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

/** An article row as stored (times in epoch milliseconds, `premium` as 0/1). */
export type ArticleSeed = [
  site: string,
  slug: string,
  title: string,
  author: string,
  premium: number,
  updatedAt: number,
  body: string,
];

/**
 * `count` articles over the last year before `now`. Every three rows of a site share an
 * `updatedAt` (batch imports do that), so the `slug` tie-breaker of the key is exercised.
 */
export function generateArticles(count: number, now: number): ArticleSeed[] {
  const random = randomFrom(42);
  const authors = ["ada", "grace", "linus", "barbara", "ken", "margaret"];
  const perSite = Math.ceil(count / SITES.length);
  const step = Math.max(60_000, Math.floor((365 * 86_400_000) / Math.max(1, perSite / 3)));
  return Array.from({ length: count }, (_, i) => {
    const site = SITES[i % SITES.length] as string;
    const n = Math.floor(i / SITES.length);
    const topic = TOPICS[n % TOPICS.length] as string;
    const words = 80 + Math.floor(random() * 80);
    const body = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
    return [
      site,
      `${topic}-${String((n * 7919) % 1_000_003).padStart(7, "0")}`,
      `${topic[0]?.toUpperCase()}${topic.slice(1)} notes #${n}`,
      authors[n % authors.length] as string,
      n % 4 === 0 ? 1 : 0,
      now - 365 * 86_400_000 + Math.floor(n / 3) * step,
      `${body}.`,
    ];
  });
}

/** An application log line as stored: sequence, time, level, service, message. */
export type AppLogSeed = [seq: number, at: number, level: string, service: string, message: string];

/** `count` log lines spread evenly over the 24 hours before `now`, oldest first. */
export function generateAppLogs(count: number, now: number): AppLogSeed[] {
  const random = randomFrom(7);
  const step = 86_400_000 / Math.max(1, count);
  return Array.from({ length: count }, (_, seq) => {
    const roll = random();
    const level = roll < 0.02 ? "ERROR" : roll < 0.1 ? "WARN" : roll < 0.8 ? "INFO" : "DEBUG";
    const service = SERVICES[Math.floor(random() * SERVICES.length)] as string;
    const n = Math.floor(random() * 100_000);
    const ms = Math.floor(random() * 3_000);
    const req = `req=${Math.floor(random() * 0xffff_ffff)
      .toString(16)
      .padStart(8, "0")}`;
    const route = ROUTES[n % ROUTES.length];
    const message =
      level === "ERROR"
        ? service === "billing"
          ? `${req} payment ${n} declined: card expired`
          : `${req} upstream timeout after ${ms}ms calling ${SERVICES[n % SERVICES.length]}`
        : level === "WARN"
          ? n % 2 === 0
            ? `${req} slow request ${route}/${n} took ${ms}ms`
            : `${req} retrying job ${n} (attempt ${2 + (n % 3)})`
          : level === "INFO"
            ? `${req} GET ${route}/${n} 200 in ${ms % 200}ms`
            : `${req} cache ${n % 3 === 0 ? "miss" : "hit"} for key ${service}:${n}`;
    return [seq, Math.floor(now - 86_400_000 + seq * step), level, service, message];
  });
}

/** `count` access-log lines (JSON Lines, like a reverse proxy writes them) over the 24 hours before `now`. */
export function generateAccessLog(count: number, now: number): string {
  const random = randomFrom(99);
  const step = 86_400_000 / Math.max(1, count);
  const lines: string[] = [];
  for (let seq = 0; seq < count; seq++) {
    const roll = random();
    const status = roll < 0.01 ? 500 : roll < 0.05 ? 404 : roll < 0.08 ? 429 : 200;
    const route = ROUTES[Math.floor(random() * ROUTES.length)];
    lines.push(
      JSON.stringify({
        at: new Date(Math.floor(now - 86_400_000 + seq * step)).toISOString(),
        level: status >= 500 ? "ERROR" : status >= 400 ? "WARN" : "INFO",
        message: `${status} GET ${route}/${Math.floor(random() * 100_000)} ${Math.floor(random() * 900)}ms ip=10.0.${Math.floor(random() * 255)}.${Math.floor(random() * 255)}`,
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Settings the app starts with. */
export const DEFAULT_SETTINGS: ReadonlyArray<[key: string, value: string]> = [
  ["theme", "light"],
  ["pageSize", "10"],
  ["features.search", "on"],
  ["features.downloads", "on"],
  ["support.email", "support@example.com"],
];
