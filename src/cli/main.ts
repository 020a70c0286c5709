#!/usr/bin/env node
// The `frugal-mcp` command. It loads no part of the library: `create` writes files, `dev`
// and `inspect` start other processes (the project's own tsc and node, the MCP Inspector).
import { parseArgs } from "node:util";
import { CliError } from "./cli-error.js";
import { createProject } from "./create.command.js";
import { dev } from "./dev.command.js";
import { INSPECTOR, inspect } from "./inspect.command.js";
import { ownPackage } from "./package-info.js";

const USAGE = `Usage: frugal-mcp <command> [options]

  create <dir>        write a new project into <dir> (relative or absolute): a module, a service
                      with a paginated tool, a test with createTestClient, tsconfigs with decorator
                      metadata, a README. Asks nothing when standard input is not a terminal.
      --name <name>       npm package name (default: from the folder's name)
      --from <spec>       where npm gets frugal-mcp: a version range (default: ^<this version>),
                          a tarball path (e.g. from npm pack) or a git URL
      --install           run npm install afterwards (on a terminal, the command asks)
      --no-install        don't, and don't ask
      --force             write into a folder that is not empty

  dev [entry]         compile with the project's own tsc (tsconfig.build.json, else tsconfig.json),
                      run the compiled entry (default: src/main.ts), recompile and restart on change
      --project <file>    the tsconfig to compile
      --swc               no build: node --watch --import frugal-mcp/register (needs @swc/core)
      -- <args>           arguments for the app

  inspect [entry]     start the MCP Inspector (${INSPECTOR}) against the app: the dev
                      server at http://127.0.0.1:$PORT/mcp (PORT defaults to 3000), by default
      --url <url>         another Streamable HTTP URL
      --stdio             compile once and let the Inspector start the entry over stdio
      --project <file>    the tsconfig to compile (with --stdio)
      any other option goes to the Inspector: --cli --method tools/list, …

  -v, --version       print frugal-mcp's version
  -h, --help          print this
`;

const log = (line: string) => process.stderr.write(`[frugal-mcp] ${line}\n`);

async function run(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "create":
      return runCreate(rest);
    case "dev":
      return runDev(rest);
    case "inspect":
      return inspect({ ...inspectOptions(rest), cwd: process.cwd(), log });
    case "-v":
    case "--version":
      process.stdout.write(`${ownPackage().version}\n`);
      return 0;
    case undefined:
    case "-h":
    case "--help":
      process.stdout.write(USAGE);
      return 0;
    default:
      throw new CliError(`unknown command "${command}"\n\n${USAGE}`, 2);
  }
}

/** `frugal-mcp create <folder> [--name] [--from] [--install|--no-install] [--force]`. */
async function runCreate(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      name: { type: "string" },
      from: { type: "string" },
      install: { type: "boolean" },
      "no-install": { type: "boolean" },
      force: { type: "boolean" },
    },
  });
  const [dir, ...extra] = positionals;
  if (dir === undefined || extra.length > 0) throw new CliError(`create takes one folder\n\n${USAGE}`, 2);
  await createProject({
    dir,
    name: values.name,
    from: values.from,
    install: values["no-install"] ? false : values.install,
    force: values.force,
    cwd: process.cwd(),
    interactive: process.stdin.isTTY === true,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  return 0;
}

/** `frugal-mcp dev [entry] [--project] [--swc] [-- app arguments]`. */
function runDev(args: readonly string[]): Promise<number> {
  const split = args.indexOf("--");
  const own = split === -1 ? args : args.slice(0, split);
  const { values, positionals } = parseArgs({
    args: [...own],
    allowPositionals: true,
    options: { project: { type: "string" }, swc: { type: "boolean" } },
  });
  if (positionals.length > 1) throw new CliError(`dev takes one entry file\n\n${USAGE}`, 2);
  return dev({
    entry: positionals[0] ?? "src/main.ts",
    project: values.project,
    swc: values.swc,
    args: split === -1 ? [] : args.slice(split + 1),
    cwd: process.cwd(),
    log,
  });
}

/** Picks inspect's own options out; everything else is the Inspector's, in its order. */
function inspectOptions(args: readonly string[]) {
  let url: string | undefined;
  let project: string | undefined;
  let stdio = false;
  let entry = "src/main.ts";
  const inspectorArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new CliError(`${arg} needs a value`, 2);
      return next;
    };
    if (arg === "--url") url = value();
    else if (arg === "--project") project = value();
    else if (arg === "--stdio") stdio = true;
    else if (i === 0 && !arg.startsWith("-")) entry = arg;
    else inspectorArgs.push(arg);
  }
  return { url, project, stdio, entry, inspectorArgs };
}

// `frugal-mcp create demo | head` closes the pipe early: that is no error of ours.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`frugal-mcp: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`frugal-mcp: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`frugal-mcp: ${(error instanceof Error && error.stack) || String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
