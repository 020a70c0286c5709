import { LRUCache } from "lru-cache";
import { fieldOf } from "../../common/guards.js";
import type { OnceRecords } from "../../common/once-records.js";
import { invalidParams, ProtocolError } from "../../errors/protocol-errors.js";

/** What a 2026-07-28 request that carried a request state answered: its result, or its error. */
type StateAnswer =
  | { readonly result: unknown }
  | { readonly error: { code: number; message: string; data?: unknown } };

/** Whether this submission of a request state runs the handler, or gets the first answer again. */
type Completion =
  | { readonly kind: "first"; settle(answer: StateAnswer): Promise<void> }
  | { readonly kind: "answered"; readonly answer: StateAnswer };

/** Record kept while the first submission runs; `a` holds its answer once it has one. */
interface StateRecord {
  /** The principal the state was issued to (`null`: an anonymous caller). */
  o: string | null;
  a?: StateAnswer;
}

/** Most records kept in memory when the cache offers none to share (each lives the state's lifetime). */
const MAX_LOCAL_RECORDS = 100_000;
/** How long a repeat waits for the answer of a first submission running on another instance. */
const DEFAULT_WAIT_ELSEWHERE_MS = 30_000;
/** Longest pause between two reads of the shared record while waiting for that answer. */
const MAX_POLL_MS = 250;

/**
 * Single completion of 2026-07-28 request states. A state that carries answers completes
 * once: the first submission (after its binding was verified) claims it and runs the
 * handler; a later submission by the same principal gets the first answer again without
 * running the handler (a client retrying after a lost response gets its answer); anyone
 * else — another principal, or any caller of a state issued to an anonymous one — is refused.
 * The records live in the app's cache when it shares them (`RedisCache`), else in its session
 * store when that shares them (`RedisSessionStore`), so this holds
 * across instances; otherwise in this process's memory. A repeat that arrives while the first
 * submission still runs gets its answer once it has one: from this process at once, from
 * another instance by reading the shared record again (for at most `waitElsewhereMs`).
 *
 * @example
 * ```ts
 * const completion = await states.claim(stateId, "principal:alice");
 * if (completion.kind === "answered") return completion.answer;
 * const result = await run();
 * await completion.settle({ result });
 * ```
 */
export class CompletedStates {
  private readonly records: OnceRecords;
  /** First submissions running in this process: a duplicate arriving meanwhile waits for their answer. */
  private readonly running = new Map<string, Promise<StateAnswer>>();

  constructor(
    shared: OnceRecords | undefined,
    private readonly ttlMs: number,
    private readonly waitElsewhereMs = DEFAULT_WAIT_ELSEWHERE_MS,
  ) {
    this.records = shared ?? memoryRecords(ttlMs);
  }

  /** Claims a verified state for `principal`, or answers what its first submission answered. */
  async claim(stateId: string, principal: string | null): Promise<Completion> {
    const key = `request-state:${stateId}`;
    const mine: StateRecord = { o: principal };
    const earlier = await this.records.claim(key, JSON.stringify(mine), this.ttlMs);
    if (earlier === undefined) return this.first(key, mine);
    const record = JSON.parse(earlier) as StateRecord;
    if (principal === null || record.o !== principal) throw alreadyUsed();
    if (record.a) return { kind: "answered", answer: record.a };
    const running = this.running.get(key);
    if (running) return { kind: "answered", answer: await running };
    return this.answerFromElsewhere(key, mine);
  }

  /**
   * The first submission runs on another instance (or is storing its answer here): the
   * contract says a repeat returns the first result, so read the shared record again until it
   * holds one, rather than refusing a client that retried a little early.
   */
  private async answerFromElsewhere(key: string, mine: StateRecord): Promise<Completion> {
    const deadline = Date.now() + this.waitElsewhereMs;
    for (let pause = 10; Date.now() < deadline; pause = Math.min(pause * 2, MAX_POLL_MS)) {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))),
      );
      const earlier = await this.records.claim(key, JSON.stringify(mine), this.ttlMs);
      // The record expired meanwhile (with the state's lifetime): this verified submission is the first now.
      if (earlier === undefined) return this.first(key, mine);
      const record = JSON.parse(earlier) as StateRecord;
      if (record.a) return { kind: "answered", answer: record.a };
    }
    throw new ProtocolError(
      -32000,
      "This request is being answered (its request state was submitted already); send it again in a moment to get its answer",
    );
  }

  private first(key: string, record: StateRecord): Completion {
    let finish: (answer: StateAnswer) => void = () => {};
    this.running.set(key, new Promise((resolve) => (finish = resolve)));
    return {
      kind: "first",
      settle: async (answer) => {
        finish(answer);
        this.running.delete(key);
        await this.records.put(key, JSON.stringify({ ...record, a: answer }), this.ttlMs);
      },
    };
  }
}

/** The answer a repeated submission gets: the first result, or the first error thrown again. */
export function repeatedAnswer(answer: StateAnswer): unknown {
  if ("result" in answer) return answer.result;
  throw new ProtocolError(answer.error.code, answer.error.message, answer.error.data);
}

/** What a thrown error answered, as the SDK sends it (`code`, `message`, `data`). */
export function errorAnswer(error: unknown): StateAnswer {
  const [code, message, data] = [fieldOf(error, "code"), fieldOf(error, "message"), fieldOf(error, "data")];
  return {
    error: {
      code: typeof code === "number" ? code : -32603,
      message: typeof message === "string" ? message : "Internal error",
      ...(data === undefined ? {} : { data }),
    },
  };
}

function alreadyUsed(): Error {
  return invalidParams(
    "Invalid requestState: this request state was already used; call again without requestState and answer the questions again",
  );
}

function memoryRecords(ttlMs: number): OnceRecords {
  const records = new LRUCache<string, string>({ max: MAX_LOCAL_RECORDS, ttl: ttlMs });
  return {
    claim: async (key, value) => {
      const earlier = records.get(key);
      if (earlier === undefined) records.set(key, value);
      return earlier;
    },
    put: async (key, value) => {
      records.set(key, value);
    },
  };
}
