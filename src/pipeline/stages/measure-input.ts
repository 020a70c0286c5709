import { isObject } from "../../common/guards.js";
/** Limits on what a client may send, checked before validation. */
export interface InputLimits {
  /** Largest total size of the arguments, in UTF-8 bytes (default 1 MiB). */
  maxBytes: number;
  /** Most values (array elements, object fields, scalars) in the arguments (default 10,000). */
  maxElements: number;
  /** Deepest nesting of arrays and objects (default 32). */
  maxDepth: number;
}

/** A key that can never be a declared field and is the classic prototype-pollution vector. */
const FORBIDDEN_KEY = "__proto__";

/**
 * Walks the arguments once and stops at the first limit passed, so a hostile 50 MB array
 * costs no more than the limit to refuse. Returns what was exceeded, naming the top-level
 * argument that passed it, or `undefined`. A `__proto__` key at any depth is refused too
 * (`JSON.parse` keeps it as an own property; zod would drop it silently).
 */
export function exceededInputLimit(args: unknown, limits: InputLimits): string | undefined {
  if (flatAndWithin(args, limits)) return undefined;
  let bytes = 0;
  let elements = 0;
  // `field`: the top-level argument a value sits under (undefined for the arguments themselves).
  const stack: Array<{ value: unknown; depth: number; field: string | undefined }> = [
    { value: args, depth: 0, field: undefined },
  ];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value, depth, field } = top;
    elements++;
    if (elements > limits.maxElements) {
      return `arguments hold more than ${limits.maxElements} values${at(field)}; send fewer items per call`;
    }
    if (typeof value === "string") {
      // Length is a lower bound of the UTF-8 size; measure exactly only when it could matter.
      bytes += value.length * 3 > limits.maxBytes - bytes ? Buffer.byteLength(value) : value.length;
    } else if (value !== null && typeof value === "object") {
      if (depth >= limits.maxDepth)
        return `${field === undefined ? "arguments are" : `argument \`${field}\` is`} nested deeper than ${limits.maxDepth} levels`;
      if (Array.isArray(value)) {
        for (const item of value) stack.push({ value: item, depth: depth + 1, field });
      } else {
        for (const [key, item] of Object.entries(value)) {
          if (key === FORBIDDEN_KEY) {
            const where = field === undefined ? "" : ` (inside argument \`${field}\`)`;
            return `the key \`${FORBIDDEN_KEY}\`${where} is not allowed; remove it`;
          }
          bytes += key.length;
          stack.push({ value: item, depth: depth + 1, field: field ?? key });
        }
      }
    } else {
      bytes += 8;
    }
    if (bytes > limits.maxBytes) {
      return `arguments are larger than ${limits.maxBytes} bytes${at(field)}; send less data per call`;
    }
  }
  return undefined;
}

/**
 * The common case, measured without the walk's stack (every call passes here): arguments
 * of scalars only, within every limit. Anything else (a nested value, a limit passed, the
 * forbidden key) answers false, and the walk measures it and says what was wrong.
 */
function flatAndWithin(args: unknown, limits: InputLimits): boolean {
  if (!isObject(args) || Array.isArray(args) || limits.maxDepth < 1) return false;
  let bytes = 0;
  let elements = 1;
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    if (key === FORBIDDEN_KEY) return false;
    const value = args[key];
    if (value !== null && typeof value === "object") return false;
    elements++;
    bytes += key.length + (typeof value === "string" ? value.length * 3 : 8);
  }
  // Strings count at 3 bytes a character here, the most UTF-8 can take: close calls get the walk.
  return elements <= limits.maxElements && bytes <= limits.maxBytes;
}

/** Where a total limit was passed: the top-level argument being read when it was. */
function at(field: string | undefined): string {
  return field === undefined ? "" : ` (passed in argument \`${field}\`)`;
}

/**
 * Whether `value` nests arrays and objects deeper than `maxDepth`. Walks without recursion
 * and stops at the first level past the limit, so no nesting can overflow the stack here.
 */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.value === null || typeof next.value !== "object") continue;
    if (next.depth >= maxDepth) return true;
    for (const item of Object.values(next.value)) stack.push({ value: item, depth: next.depth + 1 });
  }
  return false;
}
