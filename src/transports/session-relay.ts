import { randomBytes } from "node:crypto";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { fieldOf, isRequestId } from "../common/guards.js";
import type { Logger } from "../logging/logger.js";
import { asMessage } from "../sdk/sdk1-adapter.js";
import type { SessionStore } from "../sessions/session-store.js";
import { WrappedTransport } from "./wrapped-transport.js";

/** A shared store that carries messages between instances. */
type RelayStore = SessionStore & Required<Pick<SessionStore, "publish" | "listen">>;

/** Whether `store` can carry a client's answers between instances. */
export function canRelay(store: SessionStore): store is RelayStore {
  return store.shared && typeof store.publish === "function" && typeof store.listen === "function";
}

/** What travels on an instance's channel. */
interface Relayed {
  /** `a`: a client's answer; `n`: a notification for the GET stream held there; `r`: the record changed. */
  k: "a" | "n" | "r";
  /** The session concerned (for an answer: the session whose POST carried it). */
  s: string;
  /** The message (an answer keeps its id as the client sent it). */
  m?: JSONRPCMessage;
}

/** How the relay reaches one session's copy on this instance. */
export interface RelayedSession {
  /** Whether this copy holds the session's GET stream (then its notifications are sent here). */
  holdsStream(): boolean;
  /** The instance holding the session's GET stream, read from the session's record. */
  streamHolder(): Promise<string | undefined>;
  /** Reads the session's record again (another instance changed it). */
  refresh(): Promise<void>;
  /** Closes this copy: the session ended on another instance (DELETE). */
  end(): void;
}

interface Attached {
  answer(message: JSONRPCMessage): void;
  notify(message: JSONRPCMessage): void;
  refresh(): Promise<void>;
  end(): void;
}

/**
 * Carries messages of shared sessions between instances, over the session store's pub/sub
 * (one channel per instance): a client's answers to server-to-client requests
 * (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) go to the instance whose call asked, when a
 * load balancer sends the POST carrying the answer elsewhere; notifications outside calls
 * go to the instance holding the session's GET stream; a change of a session's
 * subscriptions is announced to that instance, so it reads the record again.
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
export class SessionRelay {
  /** This instance's part of every request id it sends. */
  readonly instanceId = randomBytes(8).toString("hex");
  /** Answers this instance received for calls running on another one. */
  relayed = 0;
  private readonly attached = new Map<string, Attached>();
  private starting: Promise<void> | undefined;
  private stops: Array<() => Promise<void>> = [];

  constructor(
    private readonly store: RelayStore,
    private readonly logger: Logger,
  ) {}

  /** Listens on this instance's channel (once; again after a failure). */
  start(): Promise<void> {
    this.starting ??= Promise.all([
      this.store.listen(`instance:${this.instanceId}`, (raw) => this.receive(raw)),
      // Every instance hears that a session ended, and closes its copy (and the streams on it).
      this.store.listen("ended", (id) => this.attached.get(id)?.end()),
    ]).then(
      (stops) => {
        this.stops = stops;
      },
      (error: unknown) => {
        this.starting = undefined;
        throw error;
      },
    );
    return this.starting;
  }

  /** Tells every instance that session `sessionId` ended (DELETE): each closes its copy. */
  async ended(sessionId: string): Promise<void> {
    await this.store.publish("ended", sessionId);
  }

  /**
   * Routes the messages of session `sessionId` through a wrapper of `transport` (which the
   * session's SDK server then connects to): its requests to the client and their answers,
   * and its notifications outside any call, which go to the instance holding the session's
   * GET stream when this copy does not. `detach` stops relaying to this copy.
   */
  wrap(
    sessionId: string,
    transport: Transport,
    session: RelayedSession,
  ): { transport: WrappedTransport; detach: () => void } {
    const relayed: WrappedTransport = new WrappedTransport(transport, {
      send: async (message, options, forward) => {
        const out = outgoing(message, this.instanceId);
        if (isStandalone(out, options?.relatedRequestId) && !session.holdsStream()) {
          const holder = await session.streamHolder();
          if (holder !== undefined && holder !== this.instanceId) {
            const note: Relayed = { k: "n", s: sessionId, m: out };
            // Nobody there (the holder stopped): sent here instead, where the event store keeps it for a resume.
            if ((await this.store.publish(`instance:${holder}`, JSON.stringify(note))) > 0) return;
          }
        }
        return forward(out, options);
      },
      receive: (message, extra, deliver) => {
        const routed = this.incoming(sessionId, message);
        if (routed) deliver(routed, extra);
      },
    });
    const attached: Attached = {
      answer: (message) => relayed.deliver(message),
      notify: (message) => {
        relayed.sendBelow(message).catch((error: unknown) => {
          this.logger.debug(`a notification relayed for session ${sessionId} could not be sent`, error);
        });
      },
      refresh: () => session.refresh(),
      end: () => session.end(),
    };
    this.attached.set(sessionId, attached);
    const detach = () => {
      if (this.attached.get(sessionId) === attached) this.attached.delete(sessionId);
    };
    return { transport: relayed, detach };
  }

  /** Tells `instance` (the holder of the session's GET stream) that the session's record changed. */
  async changed(sessionId: string, instance: string): Promise<void> {
    if (instance === this.instanceId) return;
    await this.store.publish(
      `instance:${instance}`,
      JSON.stringify({ k: "r", s: sessionId } satisfies Relayed),
    );
  }

  async close(): Promise<void> {
    this.attached.clear();
    await Promise.allSettled(this.stops.map((stop) => stop()));
    this.stops = [];
    this.starting = undefined;
  }

  /** An answer for this instance, with its id read back; one for another instance is sent there. */
  private incoming(sessionId: string, message: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!isAnswer(message) || typeof message.id !== "string") return message;
    const target = decode(message.id);
    if (!target) return message;
    if (target.instance === this.instanceId) return asMessage({ ...message, id: target.id });
    this.relayed++;
    const answer: Relayed = { k: "a", s: sessionId, m: message };
    this.store.publish(`instance:${target.instance}`, JSON.stringify(answer)).catch((error: unknown) => {
      this.logger.warn(
        `relaying a client's answer to instance ${target.instance} failed; the call waiting for it ends at its timeout`,
        error,
      );
    });
    return undefined;
  }

  private receive(raw: string): void {
    let relayed: Relayed;
    try {
      relayed = JSON.parse(raw) as Relayed;
    } catch {
      return;
    }
    const attached = this.attached.get(relayed.s);
    if (!attached) {
      this.logger.debug(`a message relayed for session ${relayed.s} found no copy of it here; dropped`);
      return;
    }
    if (relayed.k === "r") {
      attached.refresh().catch((error: unknown) => {
        this.logger.warn(`reading the record of session ${relayed.s} again failed`, error);
      });
      return;
    }
    const message = relayed.m;
    if (!message) return;
    if (relayed.k === "n") {
      attached.notify(message);
      return;
    }
    const target = isAnswer(message) && typeof message.id === "string" ? decode(message.id) : undefined;
    if (!target || target.instance !== this.instanceId) return;
    attached.answer(asMessage({ ...message, id: target.id }));
  }
}

function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return "id" in message && !("method" in message);
}

/** A notification outside any call: it goes on the session's standalone GET stream. */
function isStandalone(message: JSONRPCMessage, relatedRequestId: RequestId | undefined): boolean {
  return relatedRequestId === undefined && "method" in message && !("id" in message);
}

/** A server's request (or its cancellation) with its id made unique across instances. */
function outgoing(message: JSONRPCMessage, instance: string): JSONRPCMessage {
  if (!("method" in message)) return message;
  if ("id" in message) return { ...message, id: encode(instance, message.id) };
  if (message.method === "notifications/cancelled" && message.params) {
    const requestId = fieldOf(message.params, "requestId");
    if (isRequestId(requestId))
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
