import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { itemAt } from "../common/guards.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { isJsonValue } from "./text-window.js";

/** What a spilled call returns in `structuredContent` (the declared `outputSchema` is widened to allow it). */
export interface SpilledResult {
  spilled: { uri: string; size: number; expiresAt: string };
  /** When a page was spilled: the cursor of the page after it. */
  nextCursor?: string | null;
}

interface SummaryInput {
  meta: StoredResourceMeta;
  /** The stored value, for the preview. */
  value: unknown;
  budget: number;
  /** Most tokens of the summary with its preview (0: no preview). */
  preview: number;
  readTool: string;
  searchTool: string;
  nextCursor?: string | null;
}

/**
 * The answer of a spilled call: a `resource_link` and a short summary (how long it is kept,
 * size, item count, how to read it, and a preview that fits what is left of the budget).
 * The summary leaves out what the model does not need to read again: the URI (the link
 * carries it), the instant of expiry (`structuredContent` has it; a duration needs no
 * clock to read) and why the result was stored.
 *
 * @example
 * ```text
 * Stored for 1 h: 362.2 KiB, one JSON value. Find text with search_resource({ uri, pattern }); read a long string with read_resource({ uri, path, offset }).
 * ```
 */
export async function spillSummary(input: SummaryInput, counter: TokenCounter): Promise<CallToolResult> {
  const { meta } = input;
  const expiresAt = new Date(meta.expiresAt).toISOString();
  // A JSON value that is not an array is read by JSON Pointer, not by the lines of its text.
  const jsonValue = isJsonValue(meta);
  const what =
    meta.kind === "json-array"
      ? `a JSON array of ${meta.total} items`
      : jsonValue
        ? "one JSON value"
        : meta.kind === "text"
          ? `${meta.total} lines of text`
          : `${meta.total} bytes of ${meta.mimeType}`;
  const how =
    meta.kind === "bytes"
      ? `Read it in byte slices with ${input.readTool}({ uri, offset, limit }).`
      : jsonValue
        ? `Find text with ${input.searchTool}({ uri, pattern }); read a long string with ${input.readTool}({ uri, path, offset }).`
        : `Read it in slices with ${input.readTool}({ uri, offset, limit }) or search it with ${input.searchTool}({ uri, pattern }).`;
  const lines = [
    `Stored for ${formatDuration(meta.expiresAt - meta.createdAt)}: ${formatBytes(meta.size)}, ${what}. ${how}`,
  ];
  if (input.nextCursor) lines.push(`More results follow: call again with cursor "${input.nextCursor}".`);
  const link = {
    type: "resource_link" as const,
    uri: meta.uri,
    name: meta.name,
    mimeType: meta.mimeType,
    ...(meta.description === undefined ? {} : { description: meta.description }),
  };
  const structured: SpilledResult = { spilled: { uri: meta.uri, size: meta.size, expiresAt } };
  if (input.nextCursor !== undefined) structured.nextCursor = input.nextCursor;
  const base = lines.join("\n");
  const text = input.preview > 0 ? await withPreview(base, input, link, counter) : base;
  return { content: [link, { type: "text", text }], structuredContent: { ...structured } };
}

/** Adds the first items or lines that still fit the preview's size (and the budget) after the link and summary. */
async function withPreview(
  base: string,
  input: SummaryInput,
  link: object,
  counter: TokenCounter,
): Promise<string> {
  const entries = previewEntries(input.value);
  if (entries.length === 0) return base;
  const render = (n: number) =>
    n === 0 ? base : `${base}\nPreview (first ${n}):\n${entries.slice(0, n).join("\n")}`;
  // The link and the summary hold a random id whose token count varies from call to call;
  // counting it as one token per character (never fewer) keeps the preview the same for the
  // same result.
  const id = input.meta.uri.slice(input.meta.uri.lastIndexOf("/") + 1);
  counter = idAsCharacters(counter, id);
  const linkTokens = (await counter.count(JSON.stringify(link), input.budget)).tokens;
  const room = Math.min(input.budget, input.preview) - linkTokens - 16;
  if (room <= 0) return base;
  const fitted = await fitPrefix(entries.length, render, room, counter);
  if (fitted.n > 0) return render(fitted.n);
  // Not even the first entry fits whole: show as much of it as fits, labelled as cut.
  const first = itemAt(entries, 0);
  const cut = (chars: number) =>
    chars === 0
      ? base
      : `${base}\nPreview (start of the first):\n${first.slice(0, chars)}… (cut in this preview only)`;
  // A glimpse of its start (an item's leading fields show the shape of the rest), never more.
  const part = await fitPrefix(Math.min(first.length, CUT_PREVIEW_CHARS), cut, room, counter);
  return cut(part.n);
}

/** Characters of a first entry that must be cut to fit the preview that it shows at most. */
const CUT_PREVIEW_CHARS = 100;

/** A counter that counts `id`, wherever it occurs, as one token per character. */
function idAsCharacters(counter: TokenCounter, id: string): TokenCounter {
  if (id === "") return counter;
  return {
    count: async (text, limit) => {
      const parts = text.split(id);
      const idTokens = (parts.length - 1) * id.length;
      const rest = await counter.count(parts.join(""), Math.max(0, limit - idTokens));
      return { tokens: rest.tokens + idTokens, exact: rest.exact };
    },
  };
}

function previewEntries(value: unknown): string[] {
  const limit = 20;
  if (Array.isArray(value))
    return value.slice(0, limit).map((item) => truncateForPreview(JSON.stringify(item) ?? "null"));
  if (typeof value === "string") return value.split("\n", limit).map(truncateForPreview);
  return [];
}

/** A preview line is a glimpse, labelled as cut; the stored resource keeps everything. */
function truncateForPreview(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}… (cut in this preview only)` : text;
}

/** A time to live, rounded down (never promising longer than it is kept): `45 s`, `30 min`, `1 h`, `7 d`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s >= 86_400 && s % 86_400 === 0) return `${s / 86_400} d`;
  if (s >= 3600 && (s % 3600 === 0 || s >= 7200)) return `${Math.floor(s / 3600)} h`;
  if (s >= 60 && (s % 60 === 0 || s >= 120)) return `${Math.floor(s / 60)} min`;
  return `${s} s`;
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} bytes`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}
