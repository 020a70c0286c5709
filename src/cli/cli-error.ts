/**
 * A failure the person at the terminal can fix: the CLI prints its message alone (no stack)
 * and exits with `exitCode`.
 *
 * @example
 * ```ts
 * throw new CliError("demo is not empty: pick a new folder, or pass --force");
 * ```
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}
