import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { fieldOf, isRequestId } from "../../common/guards.js";
import { type ListenedUris, listenedUrisOf } from "./listened-uris.js";

/**
 * The front of a 2026-07-28 app's stdio connection, in front of `serveStdio`: it answers a
 * request that `refuse` names a problem of with -32602 before the SDK parses it (answers
 * nested too deep, as the HTTP front door does), and records the resource URIs its
 * `subscriptions/listen` streams ask for in `listened` (so the cache invalidator notifies
 * them, as it does URIs a 2025 session subscribed to), forgetting them when the client
 * cancels the stream or the connection ends. `serveStdio` itself holds the streams: a
 * `notifications/resources/updated` the pinned 2026 server sends reaches each matching one.
 */
export function stdioFront(
  inner: Transport,
  listened: ListenedUris,
  refuse: (message: JSONRPCMessage) => string | undefined,
): Transport {
  const releases = new Map<string | number, () => void>();
  const releaseAll = () => {
    for (const release of releases.values()) release();
    releases.clear();
  };
  const observe = (message: JSONRPCMessage) => {
    if (fieldOf(message, "method") === "notifications/cancelled") {
      const id = fieldOf(fieldOf(message, "params"), "requestId");
      if (isRequestId(id)) releases.get(id)?.();
      if (isRequestId(id)) releases.delete(id);
      return;
    }
    const uris = listenedUrisOf(message);
    const id = fieldOf(message, "id");
    if (uris.length > 0 && isRequestId(id)) {
      releases.get(id)?.(); // a reused id replaces its stream
      releases.set(id, listened.add(uris));
    }
  };
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  inner.onmessage = (message, extra) => {
    const problem = refuse(message);
    if (problem !== undefined) {
      const id = fieldOf(message, "id");
      if (isRequestId(id))
        void inner.send({ jsonrpc: "2.0", id, error: { code: -32602, message: problem } }).catch(() => {});
      return;
    }
    observe(message);
    outer.onmessage?.(message, extra);
  };
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => {
    releaseAll();
    outer.onclose?.();
  };
  return outer;
}
