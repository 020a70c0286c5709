import { randomBytes } from "node:crypto";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logging/logger.js";
import type { SessionStore } from "../sessions/session-store.js";

/** A shared store that carries messages between instances. */
type RelayStore = SessionStore & Required<Pick<SessionStore, "publish" | "listen">>;

/** Whether `store` can carry a client's answers between instances. */
export function canRelay(store: SessionStore): store is RelayStore {
  return store.shared && typeof store.publish === "function" && typeof store.listen === "function";
}

/** What travels on an instance's answer channel. */
interface RelayedAnswer {
  /** The session whose POST carried the answer. */
  s: string;
  /** The answer, its id still as the client sent it. */
  m: JSONRPCMessage;
}

/**
 * Carries a client's answers to server-to-client requests (`ctx.elicit`, `ctx.sample`,
 * `ctx.listRoots`) to the instance whose call asked, when a load balancer sends the POST
 * carrying the answer to another instance of a shared session.
 *
 * Each SDK server numbers its own requests from 0, so two instances serving one session
 * would ask with the same ids: the request ids a server sends are rewritten as
 * `<instance>~n<id>` on their way out (its cancellations too), and an answer is read back
 * on the way in. An answer naming another instance is published on that instance's
 * channel with the session it came from, and delivered there to that session's server
 * only: answers never cross sessions. Nothing is kept per request: a call that gets no
 * answer ends at its own timeout or cancellation, as the SDK bounds it, and a late answer
 * is dropped by the SDK.
 */
export class AnswerRelay {
  /** This instance's part of every request id it sends. */
  readonly instanceId = randomBytes(8).toString("hex");
  /** Answers this instance received for calls running on another one. */
  relayed = 0;
  private readonly deliver = new Map<string, (message: JSONRPCMessage) => void>();
  private starting: Promise<void> | undefined;
  private stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly store: RelayStore,
    private readonly logger: Logger,
  ) {}

  /** Listens on this instance's channel (once; again after a failure). */
  start(): Promise<void> {
    this.starting ??= this.store
      .listen(`answers:${this.instanceId}`, (raw) => this.receive(raw))
      .then(
        (stop) => {
          this.stop = stop;
        },
        (error: unknown) => {
          this.starting = undefined;
          throw error;
        },
      );
    return this.starting;
  }

  /** Routes the requests and answers of session `sessionId` over `transport` (connected already). */
  attach(sessionId: string, transport: Transport): () => void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(outgoing(message, this.instanceId), options);
    const inner = transport.onmessage;
    if (!inner) return () => {};
    const local = (message: JSONRPCMessage) => inner(message);
    this.deliver.set(sessionId, local);
    transport.onmessage = (message, extra) => {
      const routed = this.incoming(sessionId, message);
      if (routed) inner(routed, extra);
    };
    return () => {
      if (this.deliver.get(sessionId) === local) this.deliver.delete(sessionId);
    };
  }

  async close(): Promise<void> {
    this.deliver.clear();
    await this.stop?.();
    this.stop = undefined;
    this.starting = undefined;
  }

  /** An answer for this instance, with its id read back; one for another instance is sent there. */
  private incoming(sessionId: string, message: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!isAnswer(message) || typeof message.id !== "string") return message;
    const target = decode(message.id);
    if (!target) return message;
    if (target.instance === this.instanceId) return { ...message, id: target.id } as JSONRPCMessage;
    this.relayed++;
    const answer: RelayedAnswer = { s: sessionId, m: message };
    this.store.publish(`answers:${target.instance}`, JSON.stringify(answer)).catch((error: unknown) => {
      this.logger.warn(
        `relaying a client's answer to instance ${target.instance} failed; the call waiting for it ends at its timeout`,
        error,
      );
    });
    return undefined;
  }

  private receive(raw: string): void {
    let answer: RelayedAnswer;
    try {
      answer = JSON.parse(raw) as RelayedAnswer;
    } catch {
      return;
    }
    const deliver = this.deliver.get(answer.s);
    const target = isAnswer(answer.m) && typeof answer.m.id === "string" ? decode(answer.m.id) : undefined;
    if (!deliver || !target || target.instance !== this.instanceId) {
      this.logger.debug(`an answer relayed for session ${answer.s} found no call waiting here; dropped`);
      return;
    }
    deliver({ ...answer.m, id: target.id } as JSONRPCMessage);
  }
}

function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return "id" in message && !("method" in message);
}

/** A server's request (or its cancellation) with its id made unique across instances. */
function outgoing(message: JSONRPCMessage, instance: string): JSONRPCMessage {
  if (!("method" in message)) return message;
  if ("id" in message) return { ...message, id: encode(instance, message.id) };
  if (message.method === "notifications/cancelled" && message.params) {
    const requestId = (message.params as { requestId?: RequestId }).requestId;
    if (requestId !== undefined)
      return { ...message, params: { ...message.params, requestId: encode(instance, requestId) } };
  }
  return message;
}

function encode(instance: string, id: RequestId): string {
  return typeof id === "number" ? `${instance}~n${id}` : `${instance}~s${id}`;
}

function decode(id: string): { instance: string; id: RequestId } | undefined {
  const at = id.indexOf("~");
  if (at <= 0) return undefined;
  const kind = id[at + 1];
  const rest = id.slice(at + 2);
  if (kind === "n" && /^\d+$/.test(rest)) return { instance: id.slice(0, at), id: Number(rest) };
  if (kind === "s") return { instance: id.slice(0, at), id: rest };
  return undefined;
}
