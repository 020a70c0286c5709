import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Inject, Injectable } from "frugal-mcp";
import { APP_CONFIG, type AppConfig } from "./app-config.js";

/**
 * Where the app's files live: `config.dataDir`, or a fresh temporary directory that
 * `app.close()` removes. Paths are always built here from server-chosen names, never from
 * what a client sent.
 */
@Injectable()
export class DataDirectory {
  readonly path: string;
  private readonly temporary: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.temporary = config.dataDir === undefined;
    this.path = config.dataDir ?? mkdtempSync(join(tmpdir(), "frugal-app-"));
    mkdirSync(this.path, { recursive: true });
  }

  /** The path of a file in the directory, by a name the server chose. */
  file(name: string): string {
    return join(this.path, name);
  }

  async close(): Promise<void> {
    if (this.temporary) rmSync(this.path, { recursive: true, force: true });
  }
}
