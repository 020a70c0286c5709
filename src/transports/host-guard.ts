import type { IncomingMessage } from "node:http";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Which `Host` and `Origin` headers a server accepts (protection against DNS rebinding). */
export interface HostPolicy {
  /** `Host` values (`"api.example.com"` or `"api.example.com:8443"`); `"any"` turns the check off. Default: loopback names. */
  allowedHosts?: string[] | "any" | undefined;
  /** Full origins (`"https://app.example.com"`); requests without `Origin` are always allowed. Default: loopback origins. */
  allowedOrigins?: string[] | undefined;
}

/** Returns why the request must be refused, or `undefined` when it may pass. */
export function rejectForeignHost(req: IncomingMessage, policy: HostPolicy): string | undefined {
  const host = req.headers.host;
  if (policy.allowedHosts !== "any") {
    if (!host) return "Forbidden: the Host header is missing";
    const allowed = policy.allowedHosts
      ? policy.allowedHosts.includes(host) || policy.allowedHosts.includes(hostnameOf(host))
      : LOOPBACK.has(hostnameOf(host));
    if (!allowed) return `Forbidden: Host "${host}" is not allowed; add it to the allowedHosts option`;
  }
  const origin = req.headers.origin;
  if (origin) {
    const allowed = policy.allowedOrigins ? policy.allowedOrigins.includes(origin) : isLoopbackOrigin(origin);
    if (!allowed) return `Forbidden: Origin "${origin}" is not allowed; add it to the allowedOrigins option`;
  }
  return undefined;
}

function hostnameOf(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.lastIndexOf(":");
  return colon >= 0 ? host.slice(0, colon) : host;
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}
