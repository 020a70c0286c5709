import { caretRange, type PackageInfo } from "./package-info.js";
import { sourceFiles } from "./source-files.js";

/** What a new project is made of. */
interface ProjectSpec {
  /** The npm package name (from the folder's name unless given). */
  readonly name: string;
  /** Where npm gets frugal-mcp: a range (`^0.1.0`) or a `file:` tarball, a git URL, … */
  readonly frugalMcp: string;
}

/**
 * Every file of a new project, by path relative to its folder: the package.json, the two
 * tsconfigs (with decorator metadata), a module, a service with a paginated tool, a test
 * with `createTestClient`, a README and a .gitignore.
 *
 * @example
 * ```ts
 * const files = projectFiles({ name: "demo", frugalMcp: "^0.1.0" }, ownPackage());
 * files["package.json"]; // '{ "name": "demo", … }'
 * ```
 */
export function projectFiles(spec: ProjectSpec, pkg: PackageInfo): Record<string, string> {
  return {
    "package.json": packageJson(spec, pkg),
    "tsconfig.json": TSCONFIG,
    "tsconfig.build.json": TSCONFIG_BUILD,
    "vitest.config.ts": VITEST_CONFIG,
    ".gitignore": "node_modules/\ndist/\n",
    "README.md": readme(spec),
    ...sourceFiles(spec),
  };
}

function packageJson(spec: ProjectSpec, pkg: PackageInfo): string {
  const json = {
    name: spec.name,
    version: "0.1.0",
    private: true,
    type: "module",
    main: "dist/main.js",
    scripts: {
      dev: "frugal-mcp dev",
      test: "tsc --noEmit && vitest run",
      build: "tsc -p tsconfig.build.json",
      start: "node dist/main.js",
      inspect: "frugal-mcp inspect",
    },
    engines: { node: "^20.19.0 || >=22.12.0" },
    dependencies: {
      "frugal-mcp": spec.frugalMcp,
      "reflect-metadata": caretRange(pkg, "reflect-metadata", "^0.2.2"),
      zod: caretRange(pkg, "zod", "^4.0.0"),
    },
    devDependencies: {
      "@types/node": caretRange(pkg, "@types/node", "^20.19.0"),
      typescript: caretRange(pkg, "typescript", "^7.0.0"),
      vitest: caretRange(pkg, "vitest", "^4.0.0"),
    },
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

// The editor's and the tests' view: src and test, type-checked, nothing emitted. Vitest reads
// the decorator options here too (Vite 8 transforms with them), so injection works in tests.
const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "lib": ["ES2023"],
    "types": ["node"],
    "strict": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "skipLibCheck": true,
    "sourceMap": true,
    "noEmit": true
  },
  "include": ["src", "test", "vitest.config.ts"]
}
`;

// What \`npm run build\` and \`frugal-mcp dev\` compile: src only, to dist/.
const TSCONFIG_BUILD = `{
  "extends": "./tsconfig.json",
  "compilerOptions": {
    "noEmit": false,
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
`;

// A config of the project's own also stops Vitest from looking for one in the folders above.
const VITEST_CONFIG = `import { defineConfig } from "vitest/config";

// Vitest (through Vite 8) compiles with tsconfig.json's experimentalDecorators and
// emitDecoratorMetadata, so constructor injection by type works in the tests.
export default defineConfig({
  test: { include: ["test/**/*.test.ts"] },
});
`;

function readme(spec: ProjectSpec): string {
  return `# ${spec.name}

An MCP server built with [frugal-mcp](https://www.npmjs.com/package/frugal-mcp): decorated
service classes whose tools never flood a model's context window.

\`\`\`sh
npm run dev    # compiles with tsc, serves http://127.0.0.1:3000/mcp, restarts on every change
npm test       # type-checks, then runs test/ against the app through an in-memory MCP client
\`\`\`

While \`npm run dev\` runs, look at it with the MCP Inspector (\`npm run inspect\` opens its web UI;
\`npm run inspect -- --cli --method tools/list\` lists the tools in the terminal).

| file                          | what it is                                                              |
| ----------------------------- | ----------------------------------------------------------------------- |
| \`src/main.ts\`                 | starts the app: Streamable HTTP on \`PORT\` (3000), or stdio with \`--stdio\` |
| \`src/app.module.ts\`           | the module: its services and providers                                  |
| \`src/tasks/tasks.service.ts\`  | the tools: \`list_tasks\` (paginated with cursors), \`add_task\`            |
| \`src/tasks/tasks.store.ts\`    | an in-memory store, injected into the service by type                   |
| \`test/tasks.test.ts\`          | tests with \`createTestClient\`, a store of the test's own                |
| \`vitest.config.ts\`            | the test runner's settings                                              |

Constructor injection by type needs decorator metadata: \`tsconfig.json\` turns on
\`experimentalDecorators\` and \`emitDecoratorMetadata\`, and both \`npm run dev\` (tsc) and
\`npm test\` (Vitest) honour them. tsx alone does not: run it as
\`tsx --import frugal-mcp/register src/main.ts\` (after \`npm install -D tsx @swc/core\`).

For a desktop client, build once (\`npm run build\`) and start it over stdio:

\`\`\`json
{ "mcpServers": { "${spec.name}": { "command": "node", "args": ["/absolute/path/to/dist/main.js", "--stdio"] } } }
\`\`\`
`;
}
