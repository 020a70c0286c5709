/** Where the bar is drawn: a terminal (it redraws one line), or nothing. */
export interface ProgressTarget {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * A one-line progress bar for the long steps of the demo (`page  [████░░░░] 12/20`),
 * redrawn in place on a terminal and silent elsewhere, so piped output and the HTML
 * report stay clean.
 *
 * @example
 * ```ts
 * const bar = new ProgressBar(process.stderr, "page", 20);
 * bar.tick(); // … 20 times
 * bar.done();
 * ```
 */
export class ProgressBar {
  private value = 0;

  constructor(
    private readonly target: ProgressTarget | undefined,
    private readonly label: string,
    private total: number,
    private readonly width = 30,
  ) {
    this.draw();
  }

  /** One more unit done; `total` may grow when the end was not known up front. */
  tick(total = this.total): void {
    this.value++;
    this.total = Math.max(total, this.value);
    this.draw();
  }

  /** Clears the line. */
  done(): void {
    if (this.target?.isTTY) this.target.write("\r\x1b[2K");
  }

  private draw(): void {
    if (!this.target?.isTTY) return;
    const filled = Math.round((this.value / Math.max(1, this.total)) * this.width);
    const bar = "█".repeat(filled) + "░".repeat(this.width - filled);
    this.target.write(`\r  ${this.label.padEnd(10)} [${bar}] ${this.value}/${this.total}`);
  }
}
