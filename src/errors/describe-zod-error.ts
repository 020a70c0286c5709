import type { z } from "zod";

/**
 * Turns zod issues into one line per offending field: where it is, what was wrong and
 * what was expected, so a model can correct its call.
 *
 * @example
 * describeZodError(error) // 'site: expected string, received number; limit: too big: expected number to be <=50'
 * describeZodError(error) // 'rows: missing (expected array)'
 */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(arguments)";
      const message = issue.message.replace(/^Invalid input: /, "");
      // A required field left out: say so, rather than "received undefined".
      const missing = /^expected (.+), received undefined$/.exec(message);
      return `${path}: ${missing ? `missing (expected ${missing[1]})` : message}`;
    })
    .join("; ");
}
