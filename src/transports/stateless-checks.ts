import type { AuthOptions } from "./authenticate.js";
import type { SessionHost } from "./session-host.js";

/**
 * Why the options cannot serve `app` statelessly, or `undefined` when they can. Checked
 * at start-up, so a deployment that would mix callers' data (or resume nothing) never starts.
 *
 * Without sessions, the only owner that outlives a request is an authenticated principal.
 * An anonymous stateless request would own its data for that request alone: its stored
 * results could not be read by the next request, and its owner-scoped cache entries never
 * hit. Sharing one anonymous owner instead would hand every anonymous caller the others'
 * data. So an app with owner-scoped features serves statelessly only with authentication.
 */
export function statelessSettingsProblem(
  app: SessionHost,
  options: AuthOptions & { readonly eventStore?: unknown },
): string | undefined {
  if (typeof options.eventStore === "function") {
    return "HTTP option eventStore: in stateless mode every request stands alone, so a store made per session could never be resumed from; pass one store shared by every request and instance (eventStore: new RedisEventStore(…)), or leave it out";
  }
  const features = app.ownerScopedFeatures?.() ?? [];
  if (features.length === 0) return undefined;
  if (options.authenticate && !options.allowAnonymous) return undefined;
  const listed =
    features.slice(0, 5).join(", ") + (features.length > 5 ? `, and ${features.length - 5} more` : "");
  const why = options.authenticate
    ? "allowAnonymous lets requests without a principal through"
    : "no authenticate option is set";
  return `Stateless HTTP serves owner-scoped data only to authenticated principals, but ${why}, and the app declares owner-scoped features: ${listed}. Pass authenticate (a function from the request to its principal; behind the SDK's requireBearerAuth middleware, authenticate: (req) => req.auth) without allowAnonymous, or declare these with scope: "global" if their data is the same for every caller`;
}
