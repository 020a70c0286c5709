import type { z } from "zod";

/**
 * Turns zod issues into one line per offending field: where it is, what was wrong and
 * what was expected, so a model can correct its call.
 *
 * @example
 * describeZodError(error) // 'site: expected string, received number; limit: too big: expected number to be <=50'
 */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(arguments)";
      return `${path}: ${issue.message.replace(/^Invalid input: /, "")}`;
    })
    .join("; ");
}
