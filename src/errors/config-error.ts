/**
 * A declaration the framework cannot serve, found at start-up. The message names the
 * class and member and says how to fix it.
 *
 * @example
 * ```ts
 * throw new FrugalConfigError("ArticlesService.list", 'tool name "list" is taken by LogsService.list', "give one of them a distinct `name`");
 * ```
 */
export class FrugalConfigError extends Error {
  override readonly name = "FrugalConfigError";
  constructor(
    readonly where: string,
    problem: string,
    fix: string,
    /** `{ cause }`: the error that made this declaration fail (a constructor's own error). */
    options?: ErrorOptions,
  ) {
    super(`${where}: ${problem}. Fix: ${fix}.`, options);
  }
}
