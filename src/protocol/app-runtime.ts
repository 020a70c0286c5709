import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Registry } from "../builder/registry.js";
import type { CacheInvalidator } from "../cache/cache-invalidator.js";
import type { ResultCache } from "../cache/result-cache.js";
import type { Catalogue } from "../catalogue/catalogue.js";
import type { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import type { EventBus } from "../events/event-bus.js";
import type { Logger } from "../logging/logger.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import type { Interceptor } from "../pipeline/interceptor.js";
import type { ResourceHandleFactory } from "./calls/call-context.js";

/** What the registrar needs from the app to serve one session. */
export interface AppRuntime {
  readonly registry: Registry;
  readonly events: EventBus;
  readonly logger: Logger;
  /** Page size of list operations. */
  readonly listPageSize: number;
  /** The principal of authenticated calls (default: the auth info's `clientId`). */
  readonly principalOf: (auth: AuthInfo) => string;
  readonly metrics: AppMetrics;
  readonly cache: ResultCache;
  readonly invalidator: CacheInvalidator;
  readonly ephemeral: EphemeralResources;
  /** App-wide interceptors, also run around reads of stored resources. */
  readonly appInterceptors: readonly Interceptor[];
  /** Who may see which tool, resource and prompt, and what `tools/list` shows under search. */
  readonly catalogue: Catalogue;
  /** Makes `ctx.resources` for one call. */
  readonly resourceHandle: ResourceHandleFactory;
}
