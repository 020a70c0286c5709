import { type Agent, dataOf, linkOf, parseLoose, textOf } from "./agent.js";
import { type ContextData, formatLine, type Issue, type LogLine } from "./data.js";
import { ensureOk, lineAround, maxPage, type Page, readAll, type Slice, walk } from "./walks.js";

/** What a scripted agent has at hand while it works on one task. */
export interface TaskEnv {
  readonly agent: Agent;
  readonly data: ContextData;
  /** The world moves on: the tail task's 50 new log lines arrive (and the server clock with them). */
  arrive(): void;
  /** Records which way the agent took, when it had a choice (e.g. an aggregate input, or a walk). */
  note(strategy: string): void;
}

/**
 * One agent task: a question, its answer from the data itself (ground truth), "the limit"
 * (the answer-relevant data alone in its most compact form: what a model must read at the
 * very least), and two scripted agents: one for the bare server's tools (also run against
 * the capped server, with the same tolerant parsing an agent would try on a cut result)
 * and one for frugal-mcp's.
 */
export interface Task {
  readonly id: string;
  readonly kind: string;
  readonly question: (data: ContextData) => string;
  readonly truth: (data: ContextData) => unknown;
  readonly limit: (data: ContextData) => string;
  readonly bare: (env: TaskEnv) => Promise<unknown>;
  readonly frugal: (env: TaskEnv) => Promise<unknown>;
}

type LineJson = { seq: number; at: string | number; level: string; service: string; message: string };
const asLine = (item: LineJson): string =>
  formatLine({ ...item, at: typeof item.at === "number" ? item.at : Date.parse(item.at) } as LogLine);
const openIssues = (data: ContextData) => data.issues.filter((issue) => issue.state === "open");
const newestOpen = (data: ContextData) =>
  openIssues(data)
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id - a.id))
    .slice(0, 20);
const labelCounts = (issues: readonly Pick<Issue, "labels">[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const issue of issues) for (const label of issue.labels) counts[label] = (counts[label] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
};
const hasTimeout = (issue: Pick<Issue, "title">) => issue.title.includes("timeout");
const securityExport = (data: ContextData) =>
  data.issues.filter((issue) => issue.state === "open" && issue.labels.includes("security"));
const cveIds = (issues: readonly Pick<Issue, "id" | "body">[]) =>
  issues.filter((issue) => /CVE-\d{4}-\d+/.test(issue.body)).map((issue) => issue.id);
const contextLines = (data: ContextData) =>
  data.logs.slice(data.targetSeq - 5, data.targetSeq + 6).map(formatLine);

/** The bare agents parse with `parseLoose`: a cut result gives what survived the cut. */
async function bareCall<T = any>(env: TaskEnv, tool: string, args: Record<string, unknown> = {}) {
  return parseLoose<T>(textOf(await env.agent.call(tool, args)));
}

/** Finds the five lines either side of a matched line in a window of lines (oldest first). */
function aroundMatch(lines: readonly string[], match: string): string[] | undefined {
  const at = lines.indexOf(match);
  if (at < 5 || at + 5 >= lines.length) return undefined;
  return lines.slice(at - 5, at + 6);
}

export const TASKS: readonly Task[] = [
  {
    id: "lookup",
    kind: "lookup",
    question: (d) => `Title, state and labels of issue #${d.lookupId}`,
    truth: (d) => {
      const { title, state, labels } = d.issues[d.lookupId - 1] as Issue;
      return { title, state, labels };
    },
    limit: (d) => {
      const { title, state, labels } = d.issues[d.lookupId - 1] as Issue;
      return `${title}\n${state}\n${labels.join(",")}`;
    },
    async bare(env) {
      const issue = await bareCall<Issue>(env, "get_issue", { id: env.data.lookupId });
      return issue && { title: issue.title, state: issue.state, labels: issue.labels };
    },
    async frugal(env) {
      const fields = ["title", "state", "labels"];
      const result = await env.agent.call("get_issue", { id: env.data.lookupId, fields });
      const issue = dataOf<Issue>(ensureOk("get_issue", result));
      return issue && { title: issue.title, state: issue.state, labels: issue.labels };
    },
  },
  {
    id: "list-fields",
    kind: "list",
    question: () => "The 20 most recently updated open issues: id, title, updatedAt",
    truth: (d) => newestOpen(d).map((i) => [i.id, i.title, i.updatedAt]),
    limit: (d) =>
      ["id,title,updatedAt", ...newestOpen(d).map((i) => `${i.id},${i.title},${i.updatedAt}`)].join("\n"),
    async bare(env) {
      const issues = (await bareCall<Issue[]>(env, "list_issues", { state: "open" })) ?? [];
      return issues.slice(0, 20).map((i) => [i.id, i.title, i.updatedAt]);
    },
    async frugal(env) {
      const args = { state: "open", fields: ["id", "title", "updatedAt"], limit: 20 };
      const page = dataOf<Page<Issue>>(ensureOk("list_issues", await env.agent.call("list_issues", args)));
      return page?.items.map((i) => [i.id, i.title, i.updatedAt]);
    },
  },
  {
    id: "count",
    kind: "count",
    question: () => "How many open issues are there?",
    truth: (d) => openIssues(d).length,
    limit: (d) => String(openIssues(d).length),
    async bare(env) {
      return ((await bareCall<Issue[]>(env, "list_issues", { state: "open" })) ?? []).length;
    },
    async frugal(env) {
      // Size only (limit: 0) where the catalogue offers it; else the smallest page, whose envelope has the total.
      const sizeOnly = env.agent.input("list_issues", "limit")?.minimum === 0;
      env.note(sizeOnly ? "limit: 0" : "one-item page's total");
      const args = sizeOnly ? { state: "open", limit: 0 } : { state: "open", limit: 1, fields: ["id"] };
      const page = dataOf<Page>(ensureOk("list_issues", await env.agent.call("list_issues", args)));
      return page?.total;
    },
  },
  {
    id: "count-by-label",
    kind: "aggregate",
    question: () => "How many open issues carry each label?",
    truth: (d) => labelCounts(openIssues(d)),
    limit: (d) =>
      [
        "label,count",
        ...Object.entries(labelCounts(openIssues(d)))
          .sort((a, b) => b[1] - a[1])
          .map(([label, count]) => `${label},${count}`),
      ].join("\n"),
    async bare(env) {
      return labelCounts((await bareCall<Issue[]>(env, "list_issues", { state: "open" })) ?? []);
    },
    async frugal(env) {
      if (env.agent.input("list_issues", "aggregate")) {
        env.note("aggregate groupBy");
        const args = { state: "open", aggregate: { groupBy: "labels" } };
        const answer = dataOf<{
          groups: Array<{ key: { labels: string | null }; count: number }>;
          partial?: boolean;
        }>(ensureOk("list_issues", await env.agent.call("list_issues", args)));
        if (!answer || answer.partial) return undefined;
        // Issues without a label form the group whose key is null: they carry no label.
        const labelled = answer.groups.filter((g) => g.key.labels !== null);
        const counts = Object.fromEntries(labelled.map((g) => [g.key.labels, g.count]));
        return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
      }
      env.note("walk every page of labels");
      const { items } = await walk<Issue>(
        env.agent,
        "list_issues",
        { state: "open", fields: ["labels"] },
        { limit: maxPage(env.agent, "list_issues") },
      );
      return labelCounts(items);
    },
  },
  {
    id: "sum",
    kind: "aggregate",
    question: () => "How many comments do the open issues labelled bug have in all?",
    truth: (d) => openIssues(d).reduce((sum, i) => sum + (i.labels.includes("bug") ? i.comments : 0), 0),
    limit: (d) =>
      String(openIssues(d).reduce((sum, i) => sum + (i.labels.includes("bug") ? i.comments : 0), 0)),
    async bare(env) {
      const issues = (await bareCall<Issue[]>(env, "list_issues", { state: "open", label: "bug" })) ?? [];
      return issues.reduce((sum, i) => sum + i.comments, 0);
    },
    async frugal(env) {
      const filter = { state: "open", label: "bug" };
      if (env.agent.input("list_issues", "aggregate")) {
        env.note("aggregate sum");
        const args = { ...filter, aggregate: { sum: "comments" } };
        const answer = dataOf<{ groups: Array<{ sum?: number }>; partial?: boolean }>(
          ensureOk("list_issues", await env.agent.call("list_issues", args)),
        );
        return answer && !answer.partial ? answer.groups[0]?.sum : undefined;
      }
      env.note("walk every page of comments");
      const { items } = await walk<Issue>(
        env.agent,
        "list_issues",
        { ...filter, fields: ["comments"] },
        { limit: maxPage(env.agent, "list_issues") },
      );
      return items.reduce((sum, i) => sum + i.comments, 0);
    },
  },
  {
    id: "titles-containing",
    kind: "aggregate",
    question: () => 'Which issue titles contain "timeout"? The count and the first 5 ids',
    truth: (d) => {
      const ids = d.issues.filter(hasTimeout).map((i) => i.id);
      return { count: ids.length, first: ids.slice(0, 5) };
    },
    limit: (d) => {
      const ids = d.issues.filter(hasTimeout).map((i) => i.id);
      return `${ids.length}\n${ids.slice(0, 5).join(",")}`;
    },
    async bare(env) {
      const ids = ((await bareCall<Issue[]>(env, "export_issues")) ?? []).filter(hasTimeout).map((i) => i.id);
      return { count: ids.length, first: ids.slice(0, 5) };
    },
    async frugal(env) {
      const { agent } = env;
      const uri = linkOf(ensureOk("export_issues", await agent.call("export_issues", {})));
      if (!uri) throw new Error("export_issues returned no link");
      if (agent.tool("query_resource")) {
        env.note("query_resource");
        const args = { uri, where: { title: { $regex: "timeout" } }, select: ["id"], limit: 5 };
        const answer = dataOf<{ items: Issue[]; total: number }>(
          ensureOk("query_resource", await agent.call("query_resource", args)),
        );
        return answer && { count: answer.total, first: answer.items.map((i) => i.id) };
      }
      // A regular expression that only matches inside the title of each item's JSON text.
      const search = { uri, pattern: '"title":"[^"]*timeout', regex: true };
      if (agent.input("search_resource", "count") && agent.input("search_resource", "fields")) {
        env.note("search_resource count, then 5 projected matches");
        const counted = dataOf<{ count: number; partial?: boolean }>(
          ensureOk("search_resource", await agent.call("search_resource", { ...search, count: true })),
        );
        const firstFive = dataOf<{ matches: Array<{ item?: Issue; id?: number }> }>(
          ensureOk(
            "search_resource",
            await agent.call("search_resource", { ...search, limit: 5, whole: true, fields: ["id"] }),
          ),
        );
        if (!counted || counted.partial || !firstFive) return undefined;
        return { count: counted.count, first: firstFive.matches.map((m) => m.item?.id ?? m.id) };
      }
      env.note("search_resource walk (whole items)");
      const ids: number[] = [];
      let offset = 0;
      for (;;) {
        const args = offset === 0 ? { ...search, limit: 500 } : { ...search, limit: 500, offset };
        const found = dataOf<{ matches: Array<{ item?: Issue }>; hasMore?: boolean; nextOffset?: number }>(
          ensureOk("search_resource", await agent.call("search_resource", args)),
        );
        if (!found) return undefined;
        for (const match of found.matches) if (match.item && hasTimeout(match.item)) ids.push(match.item.id);
        if (!found.hasMore || found.nextOffset === undefined) break;
        offset = found.nextOffset;
      }
      return { count: ids.length, first: ids.slice(0, 5) };
    },
  },
  {
    id: "tail-then-poll",
    kind: "tail",
    question: () => "The last 100 log lines, then the 50 that arrive next",
    truth: (d) => [...d.logs.slice(-100), ...d.newLogs].map(formatLine),
    limit: (d) => [...d.logs.slice(-100), ...d.newLogs].map(formatLine).join("\n"),
    async bare(env) {
      const all = (await bareCall<LineJson[]>(env, "tail_logs")) ?? [];
      const last = all.slice(-100);
      env.arrive();
      const since = last[last.length - 1]?.at;
      const next = (await bareCall<LineJson[]>(env, "tail_logs", since === undefined ? {} : { since })) ?? [];
      return [...last, ...next].map(asLine);
    },
    async frugal(env) {
      const { agent } = env;
      let first: { items: LineJson[]; last: Page<LineJson> };
      if (agent.input("tail_logs", "tail")) {
        env.note("tail: 100");
        first = await walk<LineJson>(agent, "tail_logs", { tail: 100 });
      } else {
        env.note("latest window, every page");
        first = await walk<LineJson>(agent, "tail_logs", {});
      }
      const last = first.items.slice(-100);
      env.arrive();
      const since = first.last.nextSince;
      if (since === undefined || since === null) throw new Error("tail_logs gave no nextSince to poll from");
      const next = await walk<LineJson>(agent, "tail_logs", { since });
      return [...last, ...next.items].map(asLine);
    },
  },
  {
    id: "search-context",
    kind: "search",
    question: (d) => `The log line with ${d.targetReq}, with the 5 lines before and the 5 after it`,
    truth: contextLines,
    limit: (d) => contextLines(d).join("\n"),
    async bare(env) {
      const [match] = (await bareCall<LineJson[]>(env, "search_logs", { query: env.data.targetReq })) ?? [];
      if (!match) return undefined;
      const at = Date.parse(String(match.at));
      for (let span = 10_000; span <= 80_000; span *= 2) {
        const window =
          (await bareCall<LineJson[]>(env, "tail_logs", { since: at - span, until: at + span })) ?? [];
        const found = aroundMatch(window.map(asLine), asLine(match));
        if (found) return found;
      }
      return undefined;
    },
    async frugal(env) {
      const { agent } = env;
      const result = ensureOk("search_logs", await agent.call("search_logs", { query: env.data.targetReq }));
      const match = textOf(result).split("\n")[0] ?? "";
      const at = Date.parse(match.split(" ")[0] ?? "");
      if (Number.isNaN(at)) return undefined;
      if (agent.input("tail_logs", "tail")) {
        env.note("tail: 6 until the match, then 5 after");
        const before = await walk<LineJson>(agent, "tail_logs", { tail: 6, until: at });
        // One page of five after the match (the window goes on for minutes: no walk).
        const after = dataOf<Page<LineJson>>(
          ensureOk("tail_logs", await agent.call("tail_logs", { since: at, limit: 5 })),
        );
        return [...before.items, ...(after?.items ?? []).slice(0, 5)].map(asLine);
      }
      env.note("a window of ±10 s around the match");
      for (let span = 10_000; span <= 80_000; span *= 2) {
        const { items } = await walk<LineJson>(agent, "tail_logs", { since: at - span, until: at + span });
        const found = aroundMatch(items.map(asLine), match);
        if (found) return found;
      }
      return undefined;
    },
  },
  {
    id: "long-field",
    kind: "long field",
    question: (d) => `The line of issue #${d.longIssueId}'s crash log (its 357 KiB body) that says FATAL`,
    truth: (d) => d.fatalLine,
    limit: (d) => d.fatalLine,
    async bare(env) {
      const text = textOf(await env.agent.call("get_issue", { id: env.data.longIssueId }));
      const issue = parseLoose<Issue>(text);
      return issue
        ? issue.body.split("\n").find((line) => line.includes("FATAL"))
        : lineAround(text, "FATAL");
    },
    async frugal(env) {
      const { agent } = env;
      const result = ensureOk(
        "get_issue",
        await agent.call("get_issue", { id: env.data.longIssueId, fields: ["body"] }),
      );
      const inline = dataOf<Partial<Issue>>(result);
      if (typeof inline?.body === "string")
        return inline.body.split("\n").find((line) => line.includes("FATAL"));
      const uri = linkOf(result);
      if (!uri) return undefined;
      const found = dataOf<{
        matches: Array<{
          text?: string;
          item?: unknown;
          line?: string;
          path?: string;
          index?: number;
          offset?: number;
        }>;
        skipped?: { position: number };
      }>(
        ensureOk("search_resource", await agent.call("search_resource", { uri, pattern: "FATAL", limit: 1 })),
      );
      const match = found?.matches[0];
      if (match?.text !== undefined && match.path !== undefined && match.offset !== undefined) {
        env.note("search window, then read_resource by path");
        const line = lineAround(match.text, "FATAL");
        if (line) return line;
        const window = { uri, path: match.path, offset: Math.max(0, match.offset - 300), limit: 600 };
        const args = match.index === undefined ? window : { ...window, index: match.index };
        const read = dataOf<{ text?: string }>(
          ensureOk("read_resource", await agent.call("read_resource", args)),
        );
        return read?.text === undefined ? undefined : lineAround(read.text, "FATAL");
      }
      const whole =
        match?.line ?? match?.text ?? (match?.item === undefined ? undefined : JSON.stringify(match.item));
      if (whole !== undefined) return lineAround(whole, "FATAL");
      if (!found?.skipped) return undefined;
      // The match is reported skipped (over the budget): try reading that line, as a model would.
      env.note("match skipped; read_resource of that line");
      const args = { uri, offset: found.skipped.position, limit: 1 };
      const slice = dataOf<Slice>(ensureOk("read_resource", await agent.call("read_resource", args)));
      const entry = slice?.lines?.[0] ?? slice?.items?.[0];
      return entry === undefined ? undefined : lineAround(String(entry), "FATAL");
    },
  },
  {
    id: "export-slices",
    kind: "export",
    question: () =>
      "Read the whole export of open issues labelled security: how many records, and which mention a CVE?",
    truth: (d) => ({ records: securityExport(d).length, cve: cveIds(securityExport(d)) }),
    // Every body must be read to answer: the limit is each record's id and body, as CSV.
    limit: (d) => ["id,body", ...securityExport(d).map((i) => `${i.id},"${i.body}"`)].join("\n"),
    async bare(env) {
      const issues =
        (await bareCall<Issue[]>(env, "export_issues", { state: "open", label: "security" })) ?? [];
      return { records: issues.length, cve: cveIds(issues) };
    },
    async frugal(env) {
      const args = { state: "open", label: "security" };
      const uri = linkOf(ensureOk("export_issues", await env.agent.call("export_issues", args)));
      if (!uri) throw new Error("export_issues returned no link");
      const { entries, skipped } = await readAll(env.agent, uri);
      if (skipped > 0) return undefined;
      const issues = entries as Issue[];
      return { records: issues.length, cve: cveIds(issues) };
    },
  },
  {
    id: "log-count",
    kind: "count",
    question: () => "How many ERROR lines are in the log?",
    truth: (d) => d.logs.filter((line) => formatLine(line).includes("ERROR")).length,
    limit: (d) => String(d.logs.filter((line) => formatLine(line).includes("ERROR")).length),
    async bare(env) {
      return ((await bareCall<LineJson[]>(env, "search_logs", { query: "ERROR" })) ?? []).length;
    },
    async frugal(env) {
      const { agent } = env;
      const result = ensureOk("search_logs", await agent.call("search_logs", { query: "ERROR" }));
      const uri = linkOf(result);
      if (!uri) return textOf(result).split("\n").length;
      // A stored result's summary says how many lines it holds.
      const stated = /(\d[\d,]*) lines of text/.exec(textOf(result))?.[1];
      if (stated !== undefined) {
        env.note("the spill summary's line count");
        return Number(stated.replaceAll(",", ""));
      }
      if (agent.input("search_resource", "count")) {
        env.note("search_resource count");
        const counted = dataOf<{ count: number; partial?: boolean }>(
          ensureOk(
            "search_resource",
            await agent.call("search_resource", { uri, pattern: "ERROR", count: true }),
          ),
        );
        return counted && !counted.partial ? counted.count : undefined;
      }
      env.note("read the stored lines");
      return (await readAll(agent, uri)).entries.length;
    },
  },
];
