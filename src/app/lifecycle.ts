import { isObject } from "../common/guards.js";
import type { Logger } from "../logging/logger.js";

/** A provider that needs time to connect (a Redis client, a subscription). */
export interface Readiable {
  ready(): Promise<void>;
}

/** A provider that holds connections or timers and must release them when the app closes. */
export interface Closeable {
  close(): Promise<void> | void;
}

/** True for a provider with a `ready()` method. */
function isReadiable(value: unknown): value is Readiable {
  return isObject(value) && typeof value.ready === "function";
}

/** True for a provider with a `close()` method. */
function isCloseable(value: unknown): value is Closeable {
  return isObject(value) && typeof value.close === "function";
}

/**
 * Waits for every provider with `ready()`, but never longer than `timeoutMs`: a provider
 * that cannot connect then fails open or closed on its own, as its documentation says.
 */
export async function awaitReady(
  instances: readonly unknown[],
  timeoutMs: number,
  logger: Logger,
): Promise<void> {
  const pending = instances.filter(isReadiable).map((i) => i.ready());
  if (pending.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const outcome = await Promise.race([Promise.allSettled(pending), timeout]);
  clearTimeout(timer);
  if (outcome === "timeout")
    logger.warn(`some providers were not ready after ${timeoutMs} ms; starting anyway`);
  else
    for (const o of outcome)
      if (o.status === "rejected") logger.warn("a provider failed to get ready", o.reason);
}

/**
 * How many running apps use each provider instance. A provider given with `useValue` in a
 * module is one object shared by every app built from that module (tests build many):
 * it must be closed by the last of them, not the first.
 */
const users = new WeakMap<object, number>();

/** Records that an app uses these instances (see `closeAll`). */
export function acquireAll(instances: readonly unknown[]): void {
  for (const instance of instances) {
    if (typeof instance === "object" && instance !== null)
      users.set(instance, (users.get(instance) ?? 0) + 1);
  }
}

/**
 * Closes every provider with `close()` that no other running app still uses, newest
 * first, logging (not throwing) failures.
 */
export async function closeAll(instances: readonly unknown[], logger: Logger): Promise<void> {
  for (const instance of [...instances].reverse()) {
    if (typeof instance === "object" && instance !== null) {
      const remaining = (users.get(instance) ?? 1) - 1;
      users.set(instance, remaining);
      if (remaining > 0) continue;
    }
    if (!isCloseable(instance)) continue;
    try {
      await instance.close();
    } catch (error) {
      logger.error(`closing ${instance.constructor?.name ?? "a provider"} failed`, error);
    }
  }
}
