import type { ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logging/logger.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import type { ScopedEventStore } from "./scoped-event-store.js";

/** How often an idle resumed stream sends an SSE comment, so proxies do not cut it. */
const KEEP_ALIVE_MS = 15_000;

/**
 * Answers a stateless GET with `Last-Event-ID`: replays, as SSE, what the client missed of
 * the POST stream it names, then follows that stream in the shared store (the instance
 * that received the POST may still be running the call) until it is answered. The SDK
 * transport cannot do this: its resumed stream waits for messages that only the transport
 * serving the POST would send, and that one may live in another process.
 */
export async function resumeStream(
  res: ServerResponse,
  store: ScopedEventStore,
  lastEventId: string,
  logger: Logger,
): Promise<void> {
  if (!(await store.canResumeAfter(lastEventId))) {
    return sendJsonRpcError(
      res,
      400,
      -32000,
      "Cannot resume after this Last-Event-ID: its stream expired, belongs to another caller, or the events after it are no longer kept; send the request again",
    );
  }
  const stop = new AbortController();
  res.once("close", () => stop.abort());
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  res.flushHeaders();
  const keepAlive = setInterval(() => {
    if (!res.destroyed) res.write(": keepalive\n\n");
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  try {
    const end = await store.follow(
      lastEventId,
      async (eventId, message) => writeEvent(res, eventId, message),
      stop.signal,
    );
    if (end === "expired") logger.debug(`resumed stream of ${lastEventId} expired before it was answered`);
  } catch (error) {
    logger.warn("resuming a stream from the event store failed", error);
  } finally {
    clearInterval(keepAlive);
    res.end();
  }
}

function writeEvent(res: ServerResponse, eventId: string, message: JSONRPCMessage): void {
  // The client may have left while the store was read: nothing to write to.
  if (res.destroyed || res.writableEnded) return;
  // A priming event (stored as `{}`) carries only its id, as the SDK sends it.
  const data = "jsonrpc" in message ? JSON.stringify(message) : "";
  res.write(`${data === "" ? "" : "event: message\n"}id: ${eventId}\ndata: ${data}\n\n`);
}
