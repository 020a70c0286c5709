import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

/** Passes a message on toward the client (the wrapped transport's own `send`). */
export type Forward = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;
/** Passes a message on toward the SDK server connected above. */
export type Deliver = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/** What a wrapper does to the messages passing through it; a missing hook passes them on unchanged. */
export interface TransportHooks {
  /** A message the server sends: pass it on with `forward` (changed or not), or drop it. */
  send?(message: JSONRPCMessage, options: TransportSendOptions | undefined, forward: Forward): Promise<void>;
  /** A message the client sent: pass it on with `deliver` (changed or not), or drop it. */
  receive?(message: JSONRPCMessage, extra: MessageExtraInfo | undefined, deliver: Deliver): void;
}

/**
 * A transport over another one, seeing every message on its way: the way frugal-mcp watches,
 * screens or reroutes what an SDK server sends and receives, without replacing a method of an
 * SDK object (`npm run check:architecture` refuses `x.send = …`). Wrappers stack: the SDK
 * server connects to the outermost one, which starts the one inside it, down to the SDK's
 * transport, so each wrapper's hooks run in a known order (sends from the outside in,
 * received messages from the inside out).
 *
 * Like the SDK's `Protocol.connect`, `start()` keeps the callbacks already set on the inner
 * transport (an `onclose` its owner set before wrapping it) and calls them first.
 *
 * @example
 * const counted = new WrappedTransport(transport, {
 *   send: (message, options, forward) => {
 *     sent++;
 *     return forward(message, options);
 *   },
 * });
 * await server.connect(counted);
 */
export class WrappedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport["onmessage"];
  private readonly forward: Forward;
  private readonly deliverUp: Deliver;

  constructor(
    readonly inner: Transport,
    private readonly hooks: TransportHooks = {},
  ) {
    this.forward = (message, options) => this.inner.send(message, options);
    this.deliverUp = (message, extra) => this.onmessage?.(message, extra);
  }

  /** The session id of the transport underneath (the SDK server reads it for each request's `extra`). */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    const { inner } = this;
    const closed = inner.onclose;
    const failed = inner.onerror;
    const received = inner.onmessage;
    inner.onclose = () => {
      closed?.();
      this.onclose?.();
    };
    inner.onerror = (error) => {
      failed?.(error);
      this.onerror?.(error);
    };
    const { receive } = this.hooks;
    inner.onmessage = (message, extra) => {
      received?.(message, extra);
      if (receive) receive(message, extra, this.deliverUp);
      else this.onmessage?.(message, extra);
    };
    await inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const { send } = this.hooks;
    return send ? send(message, options, this.forward) : this.inner.send(message, options);
  }

  /**
   * Hands `message` to the server above as if the client had sent it, past this wrapper's
   * `receive` hook (an answer another instance relayed here).
   */
  deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** Sends `message` to the client past this wrapper's `send` hook. */
  sendBelow(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
