/** Limits on what a client may send, checked before validation. */
export interface InputLimits {
  /** Largest total size of the arguments, in UTF-8 bytes (default 1 MiB). */
  maxBytes: number;
  /** Most values (array elements, object fields, scalars) in the arguments (default 10,000). */
  maxElements: number;
  /** Deepest nesting of arrays and objects (default 32). */
  maxDepth: number;
}

/**
 * Walks the arguments once and stops at the first limit passed, so a hostile 50 MB array
 * costs no more than the limit to refuse. Returns what was exceeded, or `undefined`.
 */
export function exceededInputLimit(args: unknown, limits: InputLimits): string | undefined {
  let bytes = 0;
  let elements = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value: args, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    elements++;
    if (elements > limits.maxElements) {
      return `arguments hold more than ${limits.maxElements} values; send fewer items per call`;
    }
    if (typeof value === "string") {
      // Length is a lower bound of the UTF-8 size; measure exactly only when it could matter.
      bytes += value.length * 3 > limits.maxBytes - bytes ? Buffer.byteLength(value) : value.length;
    } else if (value !== null && typeof value === "object") {
      if (depth >= limits.maxDepth) return `arguments are nested deeper than ${limits.maxDepth} levels`;
      if (Array.isArray(value)) {
        for (const item of value) stack.push({ value: item, depth: depth + 1 });
      } else {
        for (const [key, item] of Object.entries(value)) {
          bytes += key.length;
          stack.push({ value: item, depth: depth + 1 });
        }
      }
    } else {
      bytes += 8;
    }
    if (bytes > limits.maxBytes) {
      return `arguments are larger than ${limits.maxBytes} bytes; send less data per call`;
    }
  }
  return undefined;
}
