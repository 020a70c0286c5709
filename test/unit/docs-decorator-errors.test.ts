// Each wrong use of a decorator compiles to the TypeScript error code docs/troubleshooting.md
// says it does, and each code such a use produces has its own entry there ("### TS1241: …"), so
// a user who searches for the code finds the fix. The cases are compiled by the project's tsc
// against src/ (as `npm run test:types` does), in .tmp/decorator-errors/.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const work = join(root, ".tmp/decorator-errors");

interface Case {
  readonly name: string;
  readonly codes: readonly string[];
  readonly source: string;
  /** Compiled with `experimentalDecorators` off (standard decorators). */
  readonly standard?: true;
}

const CASES: readonly Case[] = [
  {
    name: "tool-on-class",
    codes: ["TS1238"],
    source: `import { Tool } from "frugal-mcp";\n@Tool()\nexport class C {}`,
  },
  {
    name: "service-not-called",
    codes: ["TS1238", "TS1270"],
    source: `import { McpService, Tool } from "frugal-mcp";\n@McpService\nexport class C { @Tool() hello() { return 1; } }`,
  },
  {
    name: "tool-on-parameter",
    codes: ["TS1239"],
    source: `import { Injectable, Tool } from "frugal-mcp";\n@Injectable()\nexport class C { constructor(@Tool() readonly x: string) {} }`,
  },
  {
    name: "tool-on-field",
    codes: ["TS1240"],
    source: `import { McpService, Tool } from "frugal-mcp";\n@McpService()\nexport class C { @Tool() list = () => 1; }`,
  },
  {
    name: "service-on-field",
    codes: ["TS1240", "TS1271"],
    source: `import { McpService } from "frugal-mcp";\nexport class C { @McpService() field = 1; }`,
  },
  {
    name: "handler-does-not-fit-its-schema",
    codes: ["TS1241"],
    source: `import { McpService, Tool } from "frugal-mcp";\nimport { z } from "zod";\n@McpService()\nexport class C { @Tool({ input: { site: z.string() } }) list({ site }: { site: number }) { return site; } }`,
  },
  {
    name: "template-variables-do-not-fit",
    codes: ["TS1241"],
    source: `import { McpService, Resource } from "frugal-mcp";\n@McpService()\nexport class C { @Resource("notes://{id}") note({ id }: { id: number }) { return id; } }`,
  },
  {
    name: "tool-on-getter",
    codes: ["TS1241"],
    source: `import { McpService, Tool } from "frugal-mcp";\n@McpService()\nexport class C { @Tool() get summary() { return 1; } }`,
  },
  {
    name: "module-on-method",
    codes: ["TS1241", "TS1270"],
    source: `import { McpModule, McpService } from "frugal-mcp";\n@McpService()\nexport class C { @McpModule({}) hello() { return 1; } }`,
  },
  {
    name: "cached-not-called",
    codes: ["TS1241", "TS1270"],
    source: `import { Cached, McpService, Tool } from "frugal-mcp";\n@McpService()\nexport class C { @Tool() @Cached hello() { return 1; } }`,
  },
  {
    name: "tool-on-abstract-method",
    codes: ["TS1249"],
    source: `import { McpService, Tool } from "frugal-mcp";\n@McpService()\nexport abstract class C { @Tool() abstract hello(): number; }`,
  },
  {
    name: "tool-on-function",
    codes: ["TS1206"],
    source: `import { Tool } from "frugal-mcp";\n@Tool() function hello() { return 1; }\nexport { hello };`,
  },
  {
    name: "interface-imported-as-value",
    codes: ["TS1272"],
    source: `import { McpService, Tool } from "frugal-mcp";\nimport { Settings } from "./settings.js";\n@McpService()\nexport class C {\n  constructor(private readonly settings: Settings) {}\n  @Tool() list() { return this.settings.a; }\n}`,
  },
  {
    name: "tool-not-called",
    codes: ["TS1329"],
    source: `import { McpService, Tool } from "frugal-mcp";\n@McpService()\nexport class C { @Tool hello() { return 1; } }`,
  },
  {
    name: "standard-decorators",
    codes: ["TS1206", "TS1241"],
    standard: true,
    source: `import { Inject, Injectable, McpService, Tool } from "frugal-mcp";\n@Injectable()\nexport class Store {}\n@McpService()\nexport class C {\n  constructor(@Inject(Store) readonly store: Store) {}\n  @Tool() hello() { return 1; }\n}`,
  },
];

/** Writes the cases of one compiler setting and runs tsc: the error codes reported per case. */
async function compile(standard: boolean): Promise<Map<string, Set<string>>> {
  const dir = join(work, standard ? "standard" : "legacy");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tsconfig = {
    extends: "../../../tsconfig.base.json",
    compilerOptions: {
      noEmit: true,
      isolatedModules: true,
      ...(standard ? { experimentalDecorators: false, emitDecoratorMetadata: false } : {}),
      paths: { "frugal-mcp": ["../../../src/index.ts"] },
    },
    include: ["*.ts"],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  writeFileSync(join(dir, "settings.ts"), "export interface Settings { a: number }\n");
  for (const c of CASES.filter((c) => (c.standard ?? false) === standard))
    writeFileSync(join(dir, `${c.name}.ts`), `${c.source}\n`);
  const tsc = join(root, "node_modules/.bin/tsc");
  const output = await promisify(execFile)(tsc, ["-p", join(dir, "tsconfig.json")], { cwd: root }).then(
    () => "",
    (error: { stdout?: string }) => error.stdout ?? "",
  );
  const found = new Map<string, Set<string>>();
  for (const match of output.matchAll(/([\w-]+)\.ts\(\d+,\d+\): error (TS\d+)/g)) {
    const [, file, code] = match as unknown as [string, string, string];
    found.set(file, (found.get(file) ?? new Set()).add(code));
  }
  return found;
}

describe("TypeScript errors of wrong decorator uses (docs/troubleshooting.md)", () => {
  it("each wrong use compiles to the codes listed, and each code has a troubleshooting entry", async () => {
    const [legacy, standard] = await Promise.all([compile(false), compile(true)]);
    const reported = Object.fromEntries(
      CASES.map((c) => [c.name, [...((c.standard ? standard : legacy).get(c.name) ?? [])].sort()]),
    );
    expect(reported).toEqual(Object.fromEntries(CASES.map((c) => [c.name, [...c.codes].sort()])));
    // The fixture that only declares an interface compiles cleanly.
    expect(legacy.get("settings")).toBeUndefined();

    const guide = readFileSync(join(root, "docs/troubleshooting.md"), "utf8");
    const entries = new Set([...guide.matchAll(/^### (TS\d+): /gm)].map((m) => m[1]));
    const codes = new Set(CASES.flatMap((c) => c.codes));
    expect([...codes].filter((code) => !entries.has(code))).toEqual([]);
  }, 120_000);
});
