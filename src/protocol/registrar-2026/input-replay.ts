import { createHash, randomUUID } from "node:crypto";
import type { ServerContext } from "@modelcontextprotocol/server";
import type { Clock } from "../../clock/clock.js";
import { canonicalJson } from "../../common/canonical-json.js";
import { invalidParams, ProtocolError } from "../../errors/protocol-errors.js";
import { CursorCodec, CursorError } from "../../pagination/cursor-codec.js";
import { type CursorSecret, createKeyring } from "../../pagination/cursor-keys.js";
import type { AppRuntime } from "../app-runtime.js";
import { principalOwner } from "../calls/owner.js";

/** One 2026-07-28 request's replay of `ctx.elicit` / `ctx.sample` / `ctx.listRoots`. */
export interface Replay {
  /**
   * What a question sends: the answer given on an earlier round (or in this request's
   * `inputResponses`, under `key`), or a stop. `key` defaults to `frugal.<n>`.
   */
  ask(request: { method: string; params?: unknown }, key?: string): Promise<unknown>;
  /** Set once the handler asked a question not answered yet: the call ends with `inputRequired()`. */
  readonly pending: boolean;
  /** The input-required result: the open questions, and the encrypted state holding the answers so far. */
  inputRequired(): Record<string, unknown>;
  /** A digest naming the verified request state this request carried (none: a first round). */
  readonly stateId: string | undefined;
  /** The principal the state is bound to (`null`: an anonymous caller). */
  readonly principal: string | null;
  /**
   * The call's id (`ctx.callId`): the one the request state carries, so every round of one
   * call has the same; a new random UUID on a first round.
   */
  readonly callId: string;
}

/** Starts the replay of one request; throws `-32602` when its request state is not valid. */
export type ModernAsk = (
  request: { method: string; params?: Record<string, unknown> },
  ctx: ServerContext,
) => Replay;

/** How long an input-required round may wait for the client's answer (default 10 minutes). */
export const DEFAULT_REPLAY_TTL_MS = 10 * 60 * 1000;
/**
 * How long the state of an anonymous caller lives: bound to no principal, it is protected
 * by single use and this short life only.
 */
export const ANONYMOUS_REPLAY_TTL_MS = 2 * 60 * 1000;
/** Questions one call may ask (each round re-runs the handler from the start). */
const MAX_QUESTIONS = 16;
/** Longest request state issued or accepted: the answers so far travel in it. */
const MAX_STATE_LENGTH = 64 * 1024;

/**
 * Keeps `await ctx.elicit(…)` / `await ctx.sample(…)` working on 2026-07-28 requests,
 * where the server can no longer send requests to the client: the first question ends
 * the call with an input-required result; when the client answers, the handler runs again
 * from the start and each question returns, in order, the answer given. The answers ride
 * in the request state, encrypted and authenticated (AES-256 SIV with a random nonce, under
 * the app's `cursorSecret`: an elicited PIN never travels readable, and no two states are
 * alike) and bound to the method, the
 * tool/prompt/resource, its input and the principal, so a client can neither read or change
 * an earlier answer nor move the state to another call or caller; it expires after
 * `DEFAULT_REPLAY_TTL_MS` (`ANONYMOUS_REPLAY_TTL_MS` without a principal). Handlers must not
 * have side effects before their last question; `CompletedStates` makes an answered state
 * complete once.
 */
export function inputReplay(
  runtime: AppRuntime,
  options: { readonly cursorSecret?: CursorSecret | undefined },
  clock: Clock,
): ModernAsk {
  const codecs = stateCodecs(options.cursorSecret, clock);
  return (request, ctx) => new ReplayRound(codecs, () => stateBinding(runtime, request, ctx), ctx);
}

/** What a request state is bound to: the call's method, target, input and principal. */
type StateBinding = Parameters<CursorCodec["open"]>[1] & { readonly principal: string | null };

/** The codecs of request states: one per lifetime, a principal's and an anonymous caller's. */
interface StateCodecs {
  readonly named: CursorCodec;
  readonly anonymous: CursorCodec;
}

function stateCodecs(cursorSecret: CursorSecret | undefined, clock: Clock): StateCodecs {
  // One keyring for both lifetimes: without a cursorSecret it is random, made once.
  const keyring = createKeyring(cursorSecret);
  const codecFor = (ttlMs: number) =>
    new CursorCodec({ keyring, clock, ttlMs, encrypt: true, maxLength: MAX_STATE_LENGTH });
  return { named: codecFor(DEFAULT_REPLAY_TTL_MS), anonymous: codecFor(ANONYMOUS_REPLAY_TTL_MS) };
}

/**
 * The binding of `request`'s state. Made on need, not per request: most calls carry no
 * state and ask nothing.
 */
function stateBinding(
  runtime: AppRuntime,
  request: { method: string; params?: Record<string, unknown> },
  ctx: ServerContext,
): StateBinding {
  const params = request.params ?? {};
  const auth = ctx.http?.authInfo;
  return {
    operation: `${request.method} ${String(params.name ?? params.uri ?? "")}`,
    canonicalInput: canonicalJson(params.arguments ?? {}),
    keySpec: "frugal/request-state",
    keyFields: [],
    principal: auth ? (principalOwner(runtime.principalOf, auth) ?? null) : null,
  };
}

/** One request's round of questions: the answers it replays and the questions it leaves open. */
class ReplayRound implements Replay {
  readonly stateId: string | undefined;
  /** Answers by question index; a hole is a question not answered yet. */
  private readonly answers: unknown[];
  private readonly responses: Record<string, unknown>;
  private issuedCallId: string | undefined;
  private asked = 0;
  private tooMany = false;
  /** Kept for inputRequired(): the handler may swallow the rejection, the call must not go on. */
  private duplicate: Error | undefined;
  /** Questions asked and not answered yet, by key; made on the first one (most calls ask none). */
  private open: Map<string, { method: string; params?: unknown }> | undefined;

  /** The state's binding, made once on the first need (it canonicalizes the arguments). */
  private bound: StateBinding | undefined;

  constructor(
    private readonly codecs: StateCodecs,
    private readonly bindingOf: () => StateBinding,
    ctx: ServerContext,
  ) {
    const state = ctx.mcpReq.requestState<unknown>();
    const opened = openState(codecs.named, () => this.binding(), state);
    this.answers = opened.answers;
    this.issuedCallId = opened.callId;
    this.responses = ctx.mcpReq.inputResponses ?? {};
    this.stateId =
      typeof state === "string" ? createHash("sha256").update(state).digest("base64url") : undefined;
  }

  ask(inputRequest: { method: string; params?: unknown }, key?: string): Promise<unknown> {
    const index = this.asked++;
    const name = key ?? keyOf(index);
    const answer = this.answerTo(index, name);
    if (answer !== undefined) return Promise.resolve(answer);
    return Promise.reject(this.leaveOpen(index, name, inputRequest));
  }

  get pending(): boolean {
    return this.open !== undefined && this.open.size > 0;
  }

  inputRequired(): Record<string, unknown> {
    const open = this.open;
    if (open === undefined || open.size === 0) throw new Error("no question is pending");
    if (this.duplicate) throw this.duplicate;
    if (this.tooMany) {
      throw invalidParams(
        `This call asked more than ${MAX_QUESTIONS} questions (ctx.elicit/ctx.sample/ctx.listRoots); ask fewer`,
      );
    }
    const bound = this.binding();
    const issuer = bound.principal === null ? this.codecs.anonymous : this.codecs.named;
    const requestState = issuer.encode({}, bound, {
      answers: JSON.stringify(this.answers),
      callId: this.callId,
    });
    return { resultType: "input_required", inputRequests: Object.fromEntries(open), requestState };
  }

  private binding(): StateBinding {
    this.bound ??= this.bindingOf();
    return this.bound;
  }

  get principal(): string | null {
    return this.binding().principal;
  }

  get callId(): string {
    this.issuedCallId ??= randomUUID();
    return this.issuedCallId;
  }

  /** The answer to question `index` from an earlier round or this request (`undefined`: none yet). */
  private answerTo(index: number, name: string): unknown {
    const earlier = this.answers[index];
    if (earlier !== undefined && earlier !== null) return earlier;
    const response = this.responses[name];
    if (response === undefined || index >= MAX_QUESTIONS) return undefined;
    // The SDK has already dropped answers that are not results of the request they name,
    // so one that reaches here is a result (a dropped one is simply asked again).
    this.answers[index] = response;
    return response;
  }

  /** Records an unanswered question for inputRequired(); the error that stops the handler. */
  private leaveOpen(index: number, name: string, inputRequest: { method: string; params?: unknown }): Error {
    if (this.open?.has(name)) {
      this.duplicate ??= new Error(
        `Two questions of this call are named "${name}": give each ctx.elicit/ctx.sample/ctx.listRoots its own key`,
      );
      return this.duplicate;
    }
    this.open ??= new Map();
    this.open.set(name, inputRequest);
    if (index >= MAX_QUESTIONS) this.tooMany = true;
    // The handler's result is replaced by the input-required result. A protocol error, so
    // the pipeline passes it through (no isError result, no warning).
    return new ProtocolError(-32000, `waiting for the client's answer to ${inputRequest.method}`);
  }
}

const keyOf = (index: number) => `frugal.${index}`;

/**
 * The answers of earlier rounds and the call's id, from the verified request state (none
 * without one; a state issued before call ids has none either: the call gets a new one).
 */
function openState(
  codec: CursorCodec,
  binding: () => Parameters<CursorCodec["open"]>[1],
  state: unknown,
): { answers: unknown[]; callId: string | undefined } {
  let answers: unknown[] = [];
  let callId: string | undefined;
  if (typeof state === "string") {
    try {
      const opened = codec.open(state, binding()).state;
      answers = typeof opened.answers === "string" ? (JSON.parse(opened.answers) as unknown[]) : [];
      if (typeof opened.callId === "string") callId = opened.callId;
    } catch (error) {
      if (!(error instanceof CursorError)) throw error;
      throw invalidParams(
        `Invalid requestState: ${error.message.replaceAll("the cursor", "the request state")}; call again without requestState and answer the questions again`,
      );
    }
  }
  return { answers, callId };
}
