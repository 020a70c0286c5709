import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { BpeTokenCounter } from "frugal-mcp";

/**
 * o200k tokens of texts, counted whole with frugal-mcp's own BPE counter. Large texts
 * (a bare server's whole export, read by several tasks) are remembered, so each is
 * tokenized once per process.
 */
export class TokenMeter {
  private readonly counter = new BpeTokenCounter();
  private readonly large = new Map<string, number>();

  async count(text: string): Promise<number> {
    if (text.length === 0) return 0;
    const known = this.large.get(text);
    if (known !== undefined) return known;
    const { tokens } = await this.counter.count(text, Number.MAX_SAFE_INTEGER);
    if (text.length > 32 * 1024) this.large.set(text, tokens);
    return tokens;
  }
}

/** One tool call as the bench saw it. */
export interface CallRecord {
  readonly tool: string;
  /** Tokens of the result the model reads. */
  readonly read: number;
  /** Tokens of the arguments the model writes. */
  readonly written: number;
}

/**
 * Ephemeral ids are 128 random bits, so their token count changes from run to run (a
 * link costs 18–27 tokens): before counting, each distinct id is replaced by a fixed
 * stand-in of the same form, the n-th id of a session by the n-th stand-in.
 */
const EPHEMERAL_ID = /(ephemeral:\/\/[^/\s"\\]+\/)([A-Za-z0-9_-]{22})(?![A-Za-z0-9_-])/g;
const STAND_INS = standIns(64, 22, 0x2545f491);

/**
 * A cursor bound to a stored result (query_resource's, search_resource's) signs that
 * result's random URI, so its characters, and their token count, change from run to run
 * as the id does. Such a cursor is counted as a fixed stand-in of its own length, the
 * n-th of a session by the n-th, from a random-looking sequence of the cursor alphabet.
 */
const CURSOR_STAND_INS = standIns(64, 256, 0x1b873593);

function standIns(count: number, length: number, seed: number): string[] {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 64;
  };
  return Array.from({ length: count }, () => Array.from({ length }, () => alphabet[next()]).join(""));
}

/**
 * What a model reads of a tool result: its text blocks, its `resource_link`s (the link's
 * JSON without `type`), the text of embedded resources, and `structuredContent` only when
 * there is no text block (a result with text carries its data there). The same rule as
 * frugal-mcp's budgets, applied to every contender alike.
 */
export function readableText(result: CallToolResult): string {
  const parts: string[] = [];
  let sawText = false;
  for (const block of result.content ?? []) {
    if (block.type === "text") {
      sawText = true;
      parts.push(block.text);
    } else if (block.type === "resource_link") {
      const { type: _type, ...link } = block;
      parts.push(JSON.stringify(link));
    } else if (block.type === "resource" && "text" in block.resource) {
      parts.push(String(block.resource.text));
    }
  }
  if (!sawText && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}

/**
 * The scripted agent's hands and eyes: it calls tools through a real SDK `Client` and
 * counts, for each call, the tokens of the result it reads and of the arguments it
 * writes. It reads the tool catalogue once, as a model is given it, and uses it to see
 * which inputs a tool takes (a feature that lands shows up there, and the agent uses it).
 */
export class Agent {
  readonly records: CallRecord[] = [];
  private readonly ids = new Map<string, string>();
  private readonly cursorStandIns = new Map<string, string>();

  /** Called after each call with what the model read (for `--trace`). */
  onCall?: (tool: string, args: string, read: number, text: string) => void;

  private constructor(
    private readonly client: Client,
    private readonly meter: TokenMeter,
    readonly tools: readonly Tool[],
  ) {}

  static async connect(client: Client, meter: TokenMeter): Promise<Agent> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return new Agent(client, meter, tools);
  }

  /** Every `nextCursor` the agent was handed: its length and its o200k tokens. */
  readonly cursors: Array<{ chars: number; tokens: number }> = [];

  /** Notes a cursor the agent will send back (counted once more in `written` when it does). */
  async noteCursor(cursor: string): Promise<void> {
    this.cursors.push({ chars: cursor.length, tokens: await this.meter.count(this.normalize(cursor)) });
  }

  get calls(): number {
    return this.records.length;
  }

  get read(): number {
    return this.records.reduce((sum, record) => sum + record.read, 0);
  }

  get written(): number {
    return this.records.reduce((sum, record) => sum + record.written, 0);
  }

  /** Calls a tool; an `isError` result is returned (and counted) like any other. */
  async call(tool: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    const result = (await this.client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: 600_000,
    })) as CallToolResult;
    this.noteBoundCursor(args, result);
    const text = this.normalize(readableText(result));
    const read = await this.meter.count(text);
    const argsText = this.normalize(JSON.stringify(args));
    const written = await this.meter.count(argsText);
    this.records.push({ tool, read, written });
    this.onCall?.(tool, argsText, read, text);
    return result;
  }

  /** The tool of that name in the catalogue. */
  tool(name: string): Tool | undefined {
    return this.tools.find((tool) => tool.name === name);
  }

  /** The JSON Schema of one input of a tool, when the tool takes it. */
  input(tool: string, name: string): Record<string, unknown> | undefined {
    const properties = this.tool(tool)?.inputSchema.properties as Record<string, unknown> | undefined;
    return properties?.[name] as Record<string, unknown> | undefined;
  }

  /** Registers a stand-in for the cursor of a result read from a stored result (see CURSOR_STAND_INS). */
  private noteBoundCursor(args: Record<string, unknown>, result: CallToolResult): void {
    const cursor = (result.structuredContent as { nextCursor?: unknown } | undefined)?.nextCursor;
    if (typeof cursor !== "string" || this.cursorStandIns.has(cursor)) return;
    if (!JSON.stringify(args).match(EPHEMERAL_ID)) return;
    const standIn = CURSOR_STAND_INS[this.cursorStandIns.size % CURSOR_STAND_INS.length] as string;
    this.cursorStandIns.set(cursor, standIn.slice(0, cursor.length).padEnd(cursor.length, "A"));
  }

  private normalize(text: string): string {
    for (const [cursor, standIn] of this.cursorStandIns) text = text.replaceAll(cursor, standIn);
    return text.replace(EPHEMERAL_ID, (_all, prefix: string, id: string) => {
      let standIn = this.ids.get(id);
      if (standIn === undefined) {
        standIn = STAND_INS[this.ids.size % STAND_INS.length] as string;
        this.ids.set(id, standIn);
      }
      return prefix + standIn;
    });
  }
}

/** The text blocks of a result, joined. */
export function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => (block as { text: string }).text)
    .join("\n");
}

/** The URI of the first `resource_link` of a result (a spilled or stored result), if any. */
export function linkOf(result: CallToolResult): string | undefined {
  const link = (result.content ?? []).find((block) => block.type === "resource_link");
  return link?.type === "resource_link" ? link.uri : undefined;
}

/**
 * A result's data as a program gets it: `structuredContent` when there is one (frugal-mcp
 * keeps the full JSON envelope there whatever its text looks like), else the text parsed
 * as JSON; undefined when the text is not JSON.
 */
export function dataOf<T = any>(result: CallToolResult): T | undefined {
  if (result.structuredContent !== undefined) return result.structuredContent as T;
  try {
    return JSON.parse(textOf(result)) as T;
  } catch {
    return undefined;
  }
}

/**
 * JSON text, or as much of it as survived a cut: a JSON array cut short gives the items
 * before the cut (what an agent would make of it); anything else that does not parse
 * gives undefined.
 */
export function parseLoose<T = any>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    if (!text.startsWith("[")) return undefined;
    for (let end = text.lastIndexOf("},{"); end > 0; end = text.lastIndexOf("},{", end - 1)) {
      try {
        return JSON.parse(`${text.slice(0, end + 1)}]`) as T;
      } catch {
        // an item's own text held "},{": try the boundary before it
      }
    }
    return [] as T;
  }
}
