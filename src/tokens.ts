import type { InjectionToken } from "tsyringe";
import type { Clock } from "./clock/clock.js";
import type { Logger } from "./logging/logger.js";

/**
 * Every DI token the framework defines. Register a provider for one of these in a
 * module's `providers` to replace the framework's default.
 *
 * @example
 * ```ts
 * @McpModule({ services: [S], providers: [{ provide: CLOCK, useValue: { now: () => 0 } }] })
 * class TestModule {}
 * ```
 */
export const CLOCK: InjectionToken<Clock> = Symbol.for("frugal-mcp.CLOCK");
export { EVENT_BUS } from "./events/event-bus.js";
export { SESSION_STORE } from "./sessions/session-store.js";
/** Where the framework writes its own diagnostics (stderr by default, never stdout). */
export const LOGGER: InjectionToken<Logger> = Symbol.for("frugal-mcp.LOGGER");
/** Storage of ephemeral resources. */
export const STORAGE: InjectionToken<unknown> = Symbol.for("frugal-mcp.STORAGE");
/** Cache of shaped results. */
export const CACHE: InjectionToken<unknown> = Symbol.for("frugal-mcp.CACHE");
/** Counts the tokens a model reads. */
export const TOKEN_COUNTER: InjectionToken<unknown> = Symbol.for("frugal-mcp.TOKEN_COUNTER");
