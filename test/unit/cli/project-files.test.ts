import { describe, expect, it } from "vitest";
import type { PackageInfo } from "../../../src/cli/package-info.js";
import { projectFiles } from "../../../src/cli/project-files.js";

const pkg: PackageInfo = {
  root: "/",
  version: "1.2.3",
  versions: { zod: "4.1.0", typescript: "6.0.2", vitest: "^4.1.0", "reflect-metadata": "0.2.2" },
};
const files = projectFiles({ name: "my-server", frugalMcp: "^1.2.3" }, pkg);

describe("projectFiles", () => {
  it("writes a package.json that runs dev, test, build and inspect, with the versions frugal-mcp is tested with", () => {
    const manifest = JSON.parse(files["package.json"] as string);
    expect(manifest).toMatchObject({
      name: "my-server",
      private: true,
      type: "module",
      main: "dist/main.js",
    });
    expect(manifest.scripts).toMatchObject({
      dev: "frugal-mcp dev",
      build: "tsc -p tsconfig.build.json",
      inspect: "frugal-mcp inspect",
    });
    expect(manifest.dependencies).toEqual({
      "frugal-mcp": "^1.2.3",
      "reflect-metadata": "^0.2.2",
      zod: "^4.1.0",
    });
    expect(manifest.devDependencies).toEqual({
      "@types/node": "^20.19.0",
      typescript: "^6.0.2",
      vitest: "^4.1.0",
    });
    expect((files["package.json"] as string).endsWith("}\n")).toBe(true);
  });

  it("turns on decorator metadata for the editor and tests, and builds src alone to dist", () => {
    const tsconfig = JSON.parse(files["tsconfig.json"] as string);
    expect(tsconfig.compilerOptions).toMatchObject({
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      noEmit: true,
    });
    const build = JSON.parse(files["tsconfig.build.json"] as string);
    expect(build).toEqual({
      extends: "./tsconfig.json",
      compilerOptions: { noEmit: false, rootDir: "src", outDir: "dist" },
      include: ["src"],
    });
  });

  it("adds the source files, a README naming the server, a test config and a .gitignore", () => {
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "src/main.ts",
        "src/tasks/tasks.service.ts",
        "test/tasks.test.ts",
        "vitest.config.ts",
        ".gitignore",
        "README.md",
      ]),
    );
    expect(files["README.md"]).toMatch(/^# my-server\n/);
    expect(files["README.md"]).toContain('"my-server": { "command": "node"');
    expect(files[".gitignore"]).toBe("node_modules/\ndist/\n");
  });
});
