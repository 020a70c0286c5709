import type { InjectionToken } from "tsyringe";

/**
 * Switches tools, resources and prompts on and off while the app runs: `app.catalogue`, or
 * injected with the `CATALOGUE` token. Each change is carried by the app's `EVENT_BUS` (so a
 * `RedisEventBus` takes it to every instance), and always sends the list-changed
 * notifications of the lists it touches to every 2025 session and every 2026
 * `subscriptions/listen` stream that asked for them. A disabled operation is not listed and is
 * refused on call, read or get as an unknown name is. Changes live in memory: an instance
 * started later starts with everything enabled. When the bus cannot publish a change (Redis
 * down), it still applies on this instance and the call rejects with the bus's error (a
 * `RedisEventBus` sends it again once Redis answers).
 *
 * @example
 * ```ts
 * await app.catalogue.disable("purge_cache");  // gone from tools/list; calls answer "Unknown tool"
 * await app.catalogue.enable("purge_cache");
 * await app.catalogue.disable("purg_cache");   // throws: … did you mean "purge_cache"?
 * ```
 */
export interface CatalogueControl {
  /**
   * Lists (and serves) again the tools, prompts and resources named `name` (a tool or prompt
   * name, a resource URI or URI template). Rejects, naming close names, when nothing has it.
   */
  enable(name: string): Promise<void>;
  /** Hides the tools, prompts and resources named `name` from every caller, on every instance. */
  disable(name: string): Promise<void>;
  /** Whether `name` is enabled on this instance (false for a name nothing has). */
  isEnabled(name: string): boolean;
}

/**
 * The DI token of the app's {@link CatalogueControl}, for a service that switches operations
 * on and off itself.
 *
 * @example
 * ```ts
 * constructor(@Inject(CATALOGUE) private readonly catalogue: CatalogueControl) {}
 * ```
 */
export const CATALOGUE: InjectionToken<CatalogueControl> = Symbol.for("frugal-mcp.CATALOGUE");
