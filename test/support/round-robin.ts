import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** One request as the balancer routed it. */
export interface RoutedRequest {
  readonly method: string;
  /** Index of the instance that received it. */
  readonly instance: number;
  readonly lastEventId: string | undefined;
  /** The JSON-RPC method of a POST, when it carried one. */
  readonly rpc: string | undefined;
  /** The response status. */
  status?: number;
  /** The response's `mcp-session-id` header, if any. */
  sessionId?: string | null;
}

/**
 * A `fetch` for the SDK client that sends each request to the next instance in turn, as a
 * load balancer without stickiness would, and records where each one went.
 *
 * @example
 * ```ts
 * const balancer = roundRobin([urlA, urlB, urlC]);
 * new StreamableHTTPClientTransport(new URL(urlA), { fetch: balancer.fetch });
 * ```
 */
export function roundRobin(urls: readonly string[], onRequest?: (routed: RoutedRequest) => void) {
  let next = 0;
  const routed: RoutedRequest[] = [];
  const fetchNext: FetchLike = async (_input, init) => {
    const instance = next++ % urls.length;
    const headers = new Headers(init?.headers);
    let rpc: string | undefined;
    if (typeof init?.body === "string") {
      const body = JSON.parse(init.body) as { method?: string };
      rpc = body.method;
    }
    const entry: RoutedRequest = {
      method: init?.method ?? "GET",
      instance,
      lastEventId: headers.get("last-event-id") ?? undefined,
      rpc,
    };
    routed.push(entry);
    onRequest?.(entry);
    const response = await fetch(urls[instance] as string, init);
    entry.status = response.status;
    entry.sessionId = response.headers.get("mcp-session-id");
    return response;
  };
  return { fetch: fetchNext, routed };
}
