import { relative } from "node:path";
import { CliError } from "./cli-error.js";
import { runToEnd } from "./processes.js";
import { outputOf, readProject } from "./project-config.js";

/**
 * The Inspector `inspect` runs: one major version, so a new major never changes what the
 * command does under a project. Inspector 2 declares Node 22.19+; its CLI and web UI also
 * started on Node 20.20 when this was written (npm warns EBADENGINE).
 */
export const INSPECTOR = "@modelcontextprotocol/inspector@2";
const INSPECTOR_NODE = [22, 19] as const;
const MODES = new Set(["--cli", "--web", "--tui"]);

/** Options of `frugal-mcp inspect`. */
interface InspectOptions {
  /** The app's Streamable HTTP URL (the dev server's by default). */
  readonly url?: string | undefined;
  /** Start the compiled entry over stdio under the Inspector instead of connecting to a URL. */
  readonly stdio?: boolean | undefined;
  readonly entry: string;
  readonly project?: string | undefined;
  /** Everything else, for the Inspector as it is (`--cli --method tools/list`, …). */
  readonly inspectorArgs: readonly string[];
  readonly cwd: string;
  readonly log: (line: string) => void;
}

/**
 * The Inspector's arguments: its mode first (it requires that), then the app, then the rest.
 *
 * @example
 * ```ts
 * inspectorArgs({ url: "http://127.0.0.1:3000/mcp" }, ["--cli", "--method", "tools/list"]);
 * // ["--cli", "--transport", "http", "--server-url", "http://127.0.0.1:3000/mcp", "--method", "tools/list"]
 * ```
 */
export function inspectorArgs(
  target: { url: string } | { command: readonly string[] },
  rest: readonly string[],
) {
  const modes = rest.filter((arg) => MODES.has(arg));
  const others = rest.filter((arg) => !MODES.has(arg));
  const app =
    "url" in target
      ? ["--transport", "http", "--server-url", target.url]
      : ["--transport", "stdio", ...target.command];
  return [...modes, ...app, ...others];
}

/**
 * `frugal-mcp inspect`: starts the MCP Inspector (`npx` fetches it once) against the app:
 * the running dev server's URL by default, or with `--stdio` the compiled entry, which the
 * Inspector starts itself. Without `--cli` the Inspector opens its web UI.
 *
 * @example
 * ```ts
 * await inspect({ entry: "src/main.ts", inspectorArgs: ["--cli", "--method", "tools/list"], cwd, log });
 * ```
 */
export async function inspect(options: InspectOptions): Promise<number> {
  const { cwd, log } = options;
  let target: { url: string } | { command: readonly string[] };
  if (options.stdio) {
    const project = readProject(cwd, options.project);
    log(`compiling ${relative(cwd, project.configFile)} once, for the Inspector to start over stdio`);
    const code = await runToEnd(process.execPath, [project.tsc, "-p", project.configFile], {
      cwd,
      shell: false,
    });
    if (code !== 0) throw new CliError(`tsc found errors: fix them, then run inspect again`);
    const output = outputOf(project, options.entry, cwd);
    if (output === undefined)
      throw new CliError(`tsc wrote no ${options.entry}: is it in the project's sources?`);
    target = { command: [process.execPath, output, "--stdio"] };
  } else {
    target = { url: options.url ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/mcp` };
  }
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < INSPECTOR_NODE[0] || (major === INSPECTOR_NODE[0] && minor < INSPECTOR_NODE[1]))
    log(
      `${INSPECTOR} declares Node ${INSPECTOR_NODE.join(".")}+ and this is ${process.version}: ` +
        "if it fails to start, run inspect with a newer Node (the app itself can stay on this one)",
    );
  log(`npx ${INSPECTOR} ${"url" in target ? target.url : target.command.join(" ")}`);
  return runToEnd("npx", ["--yes", INSPECTOR, ...inspectorArgs(target, options.inspectorArgs)], { cwd });
}
