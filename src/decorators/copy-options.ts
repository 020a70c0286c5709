/**
 * A frozen copy of a decorator's options, so later changes to the caller's object do not
 * reach the recorded metadata. Anything but a plain object (a string, an array, `null`) is
 * recorded as given, for the start-up checks to refuse by name: spreading it would record
 * a string's letters as option keys.
 *
 * @example
 * ```ts
 * copyOptions({ ttl: 1000 }); // a frozen { ttl: 1000 }
 * copyOptions("list");        // "list", refused at start-up: "@Tool options must be an object"
 * ```
 */
export function copyOptions<T>(options: T): T {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return options;
  return Object.freeze({ ...options });
}

/** A frozen copy of an array option; anything else is recorded as given (see {@link copyOptions}). */
export function copyList<T>(list: T): T {
  return (Array.isArray(list) ? Object.freeze([...list]) : list) as T;
}
