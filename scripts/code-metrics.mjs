#!/usr/bin/env node
/**
 * Size figures of src/, read with the TypeScript compiler's own parser (typescript/unstable/sync,
 * the API of TypeScript 7), for the closing notes of refactoring issues:
 *
 *   node scripts/code-metrics.mjs [--json] [--functions=N]      (npm run metrics)
 *
 * Prints the number of `as` casts (`as const` aside; `as never` counted apart), the files over
 * 300 lines, the functions over 60 lines (declarations, methods, accessors, constructors, arrow
 * functions and function expressions, each with its own lines, nested ones included) and the
 * number of names src/index.ts exports. It never fails: it measures, it does not judge.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SyntaxKind } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

const FILE_LINES = 300;
const args = process.argv.slice(2);
const asJson = args.includes("--json");
const functionsArg = args.find((a) => a.startsWith("--functions="));
const FUNCTION_LINES = functionsArg ? Number(functionsArg.split("=")[1]) : 60;

const cwd = process.cwd();
const srcRoot = path.join(cwd, "src");

/** Every .ts file under `dir`, absolute. */
function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.ArrowFunction,
  SyntaxKind.FunctionExpression,
]);

/** The line (1-based) of `offset` in `text`, from a table of line starts. */
function lineTable(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/** A function's name as a reader finds it: its own, its variable's or property's, or `<anonymous>`. */
function nameOf(node, text) {
  const own = node.name ?? (node.kind === SyntaxKind.Constructor ? { text: "constructor" } : undefined);
  if (own) return own.text ?? text.slice(own.pos, own.end).trim();
  const parent = node.parent;
  if (
    parent?.name &&
    (parent.kind === SyntaxKind.VariableDeclaration ||
      parent.kind === SyntaxKind.PropertyAssignment ||
      parent.kind === SyntaxKind.PropertyDeclaration)
  )
    return parent.name.text ?? text.slice(parent.name.pos, parent.name.end).trim();
  return "<anonymous>";
}

const api = new API({ cwd });
const files = listFiles(srcRoot).sort();
let casts = 0;
let neverCasts = 0;
let constCasts = 0;
const longFiles = [];
const longFunctions = [];
let indexExports = 0;
try {
  const snapshot = api.updateSnapshot({ openProject: "tsconfig.json" });
  const project =
    snapshot.getDefaultProjectForFile(path.join(srcRoot, "index.ts")) ?? snapshot.getProjects()[0];
  for (const file of files) {
    const relative = path.relative(cwd, file).split(path.sep).join("/");
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > FILE_LINES) longFiles.push({ file: relative, lines });
    const source = project.program.getSourceFile(file);
    if (!source) throw new Error(`${relative} is not in tsconfig.json's program`);
    const lineOf = lineTable(text);
    const visit = (node) => {
      if (node.kind === SyntaxKind.AsExpression) {
        const type = node.type;
        const isConst =
          type.kind === SyntaxKind.TypeReference && text.slice(type.pos, type.end).trim() === "const";
        if (isConst) constCasts++;
        else {
          casts++;
          if (type.kind === SyntaxKind.NeverKeyword) neverCasts++;
        }
      }
      if (FUNCTION_KINDS.has(node.kind) && node.body) {
        const start = lineOf(node.getStart(source));
        const length = lineOf(node.end) - start + 1;
        if (length > FUNCTION_LINES)
          longFunctions.push({ name: nameOf(node, text), file: relative, line: start, lines: length });
      }
      node.forEachChild(visit);
    };
    source.forEachChild(visit);
    if (relative === "src/index.ts") {
      for (const statement of source.statements) {
        if (statement.kind !== SyntaxKind.ExportDeclaration) continue;
        const clause = statement.exportClause;
        // `export * from` counts as one line of surface; this codebase names every export.
        indexExports += clause?.elements ? clause.elements.length : 1;
      }
    }
  }
} finally {
  api.close();
}
longFiles.sort((a, b) => b.lines - a.lines);
longFunctions.sort((a, b) => b.lines - a.lines);

const figures = {
  files: files.length,
  casts,
  neverCasts,
  constCasts,
  filesOver300: longFiles.length,
  functionsOver60: longFunctions.length,
  indexExports,
  longFiles,
  longFunctions,
};
if (asJson) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  console.log(`source files: ${files.length}`);
  console.log(
    `as casts (as const aside): ${casts} (as never: ${neverCasts}; as const, not counted: ${constCasts})`,
  );
  console.log(`exports of src/index.ts: ${indexExports}`);
  console.log(`files over ${FILE_LINES} lines: ${longFiles.length}`);
  for (const f of longFiles) console.log(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  console.log(`functions over ${FUNCTION_LINES} lines: ${longFunctions.length}`);
  for (const f of longFunctions)
    console.log(`  ${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
}
