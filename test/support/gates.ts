/**
 * Gates for ordering events in tests without fixed sleeps: a test's own service resolves
 * one when it reaches a point (`started.resolve()`), and the test awaits it, or the test
 * holds a handler open until it resolves a gate the handler awaits (`release.resolve()`).
 */

/** A promise together with the functions that settle it. */
export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason?: unknown): void;
}

/**
 * A promise that whoever holds it settles from outside.
 *
 * @example
 * ```ts
 * const started = deferred();
 * const release = deferred();
 * // in the handler: started.resolve(); await release.promise;
 * const call = client.callTool({ name: "held", arguments: {} });
 * await started.promise; // the handler is running now
 * release.resolve();
 * await call;
 * ```
 */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * One `Deferred` per key, made on first use by either side, so a handler can announce
 * "call `id` has started" whether the test asks before or after it happens.
 *
 * @example
 * ```ts
 * const started = deferredByKey<string>();
 * // in the handler: started(id).resolve();
 * await started("c1").promise;
 * ```
 */
export function deferredByKey<K>(): (key: K) => Deferred<void> {
  const gates = new Map<K, Deferred<void>>();
  return (key) => {
    let gate = gates.get(key);
    if (!gate) {
      gate = deferred();
      gates.set(key, gate);
    }
    return gate;
  };
}
