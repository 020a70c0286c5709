#!/usr/bin/env node
/**
 * Architecture check of the import graph of src/ (plain Node, no dependencies).
 *
 *   node scripts/check-architecture.mjs [srcDir] [--json] [--kernel-word-ceiling=N]   (srcDir defaults to "src")
 *
 * frugal-mcp is a small kernel (pipeline, builder, metadata, decorators) over which
 * capabilities (pagination, cache, budget, ephemeral) slot in independently: each one can
 * be added, removed or rewritten without touching another, and the kernel names none of
 * them. The import graph must show it. Every relative import counts (value, `import type`,
 * `export … from`, side-effect `import "./x.js"`, dynamic or type-position `import("./x.js")`).
 * Each file belongs to its top-level folder under src/; a file directly in src/ (tokens.ts)
 * is a node of its own; src/index.ts, the public face that re-exports everything, is ignored.
 * The check fails (exit 1) on:
 *   1. a cycle between folders: layers must stack, or no folder can be understood alone;
 *   2. a capability importing another capability: they would no longer slot in independently;
 *   3. a kernel folder importing a capability: the kernel must not know which ones exist;
 *   4. a cycle between files, even inside one folder: module order becomes load-order luck;
 *   5. an import into or out of a standalone folder (cli/: the `frugal-mcp` command and the
 *      `frugal-mcp/register` hook): the command must load none of the library, and the library
 *      must never carry the command (they are bundled apart, rolldown.config.mjs).
 *   6. kernel files naming capabilities in code more often than `KERNEL_WORD_CEILING` (a
 *      ratchet: identifiers and strings such as `pagination`, `cacheHit`, `"@Budget"`, comments
 *      aside). The kernel still names today's capabilities in its types while they move to
 *      the capability API (issue 22); the ceiling only ever goes down, to 0.
 *   7. a patch of an SDK object: assigning to a method of a transport or a server
 *      (`transport.send = …`, `server.connect = …`, `X.prototype.y = …`), or replacing a
 *      transport's `onmessage` outside the wrappers that own their inner transport
 *      (`PATCH_ALLOWED`). Wrap the transport instead (`transports/wrapped-transport.ts`), or use
 *      the SDK's own callbacks (`server.onclose`, a transport's `onclose` set before it connects).
 * Prints each offending import as `src/a/x.ts -> src/b/y.ts`, then one summary line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

// Capabilities: features that slot in over the kernel. Adding one is adding its folder here.
const CAPABILITIES = ["pagination", "cache", "budget", "ephemeral", "catalogue", "invalidation"];
// Kernel: the folders every capability builds on; they must name no capability.
const KERNEL = ["pipeline", "builder", "metadata", "decorators"];
// Standalone: folders that import no other folder and that no other folder imports.
const STANDALONE = ["cli"];
// Words of code that name a capability (an identifier or string containing one of these).
const CAPABILITY_WORD = /paginat|cursor|cache|budget|spill|ephemeral|invalidat|projection/i;
// Rule 6's ratchet. Lower it when the count falls (the check says by how much); never raise it.
const KERNEL_WORD_CEILING = 3;
// Rule 7: methods of SDK transports and servers that code must never replace.
const SDK_METHOD_ASSIGNMENT =
  /\.(?:send|start|close|connect|handleRequest|request|notification|setRequestHandler|setNotificationHandler|removeRequestHandler)\s*=(?![=>])|\.prototype\.[\w$]+\s*=(?![=>])/g;
const ONMESSAGE_ASSIGNMENT = /\.onmessage\s*=(?![=>])/g;
// The wrappers that own their inner transport and so set its `onmessage` themselves.
const PATCH_ALLOWED = ["transports/wrapped-transport.ts", "protocol/registrar-2026/stdio-front.ts"];

const args = process.argv.slice(2);
const asJson = args.includes("--json");
const ceilingArg = args.find((a) => a.startsWith("--kernel-word-ceiling="));
const wordCeiling = ceilingArg ? Number(ceilingArg.split("=")[1]) : KERNEL_WORD_CEILING;
const label = path.posix.normalize((args.find((a) => !a.startsWith("--")) ?? "src").replaceAll("\\", "/"));
const root = path.resolve(label);
if (!existsSync(root) || !statSync(root).isDirectory()) {
  console.error(`check-architecture: no directory ${label}`);
  process.exit(2);
}

/** Every .ts file under `dir`, as paths relative to the src root with forward slashes. */
function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return entry.name.endsWith(".ts") ? [path.relative(root, full).split(path.sep).join("/")] : [];
  });
}

/**
 * Source without comments (so JSDoc examples are not imports) and without the text of template
 * literals (code that a file writes out, such as the project `frugal-mcp create` scaffolds, is
 * not an import of that file either); quoted strings are kept as they are.
 */
const stripComments = (text) =>
  text.replace(
    /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (m, s) => (s && !s.startsWith("`") ? m : m.replace(/[^\n]/g, " ")),
  );

const IMPORT_PATTERNS = [
  /(?<![\w$.])(?:import|export)\s[^;"'`]*?\bfrom\s*(["'])([^"'\n]+)\1/g, // import/export … from, import type
  /(?<![\w$.])import\s*(["'])([^"'\n]+)\1/g, // side effect: import "./x.js"
  /(?<![\w$.])import\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g, // dynamic or type position: import("./x.js")
];

/** The relative specifiers a file imports. */
function specifiersOf(file) {
  const text = stripComments(readFileSync(path.join(root, file), "utf8"));
  const found = IMPORT_PATTERNS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[2]));
  return found.filter((spec) => spec.startsWith("./") || spec.startsWith("../"));
}

/** The file a specifier names: `.js` maps to `.ts`, and a folder to its index. */
function resolve(fromFile, spec, known) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  const candidates = [base.replace(/\.js$/, ".ts"), `${base}.ts`, base, `${base}/index.ts`];
  return candidates.find((candidate) => known.has(candidate));
}

/** The top-level folder of a file, or the file's own name (no extension) for a file directly in src/. */
const nodeOf = (file) => (file.includes("/") ? file.split("/")[0] : file.replace(/\.ts$/, ""));
const show = (file) => `${label}/${file}`;
const showImport = ({ from, to }) => `${from} -> ${to}`;

/** Tarjan's strongly connected components; returns those that contain a cycle. */
function cyclicComponents(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    for (let w = null; w !== v; ) {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1 || graph.get(v)?.has(v)) components.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components;
}

/** A shortest cycle through the component's first node, staying inside it: [a, b, …, a]. */
function chainThrough(component, graph) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const chain = [start];
        for (let at = v; at !== start; at = previous.get(at)) chain.splice(1, 0, at);
        return [...chain, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

// The graphs: file -> files, folder -> folders, and every import between two folders.
const files = listFiles(root).sort();
const known = new Set(files);
const fileGraph = new Map();
const folderGraph = new Map();
const crossImports = [];
const unresolved = [];
for (const from of files) {
  if (from === "index.ts") continue;
  for (const spec of specifiersOf(from)) {
    const to = resolve(from, spec, known);
    if (to === undefined) unresolved.push(`${show(from)}: ${spec}`);
    if (to === undefined || to === "index.ts" || fileGraph.get(from)?.has(to)) continue;
    fileGraph.set(from, (fileGraph.get(from) ?? new Set()).add(to));
    const [a, b] = [nodeOf(from), nodeOf(to)];
    if (a === b) continue;
    folderGraph.set(a, (folderGraph.get(a) ?? new Set()).add(b));
    crossImports.push({ from: show(from), to: show(to), fromFolder: a, toFolder: b });
  }
}

const folderCycles = cyclicComponents(folderGraph).map((folders) => ({
  folders,
  imports: crossImports.filter((i) => folders.includes(i.fromFolder) && folders.includes(i.toFolder)),
}));
const fileCycles = cyclicComponents(fileGraph).map((members) => ({
  files: members.map(show),
  chain: chainThrough(members, fileGraph).map(show),
}));
const capabilityImports = crossImports.filter(
  (i) => CAPABILITIES.includes(i.fromFolder) && CAPABILITIES.includes(i.toFolder),
);
const kernelImports = crossImports.filter(
  (i) => KERNEL.includes(i.fromFolder) && CAPABILITIES.includes(i.toFolder),
);
const standaloneImports = crossImports.filter(
  (i) => STANDALONE.includes(i.fromFolder) || STANDALONE.includes(i.toFolder),
);
/** Identifiers and strings in the code of kernel files that name a capability, per file. */
function kernelCapabilityWords() {
  const perFile = [];
  for (const file of files.filter((f) => KERNEL.includes(nodeOf(f)))) {
    const code = stripComments(readFileSync(path.join(root, file), "utf8"));
    const words = [...code.matchAll(/[A-Za-z_$][\w$]*/g)].filter((m) => CAPABILITY_WORD.test(m[0])).length;
    if (words > 0) perFile.push({ file: show(file), words });
  }
  return perFile.sort((a, b) => b.words - a.words);
}
/** Assignments that replace a method of an SDK object (rule 7), as `src/a/x.ts:line: code`. */
function sdkPatches() {
  const found = [];
  for (const file of files) {
    const code = stripComments(readFileSync(path.join(root, file), "utf8"));
    const matches = [...code.matchAll(SDK_METHOD_ASSIGNMENT)];
    if (!PATCH_ALLOWED.includes(file)) matches.push(...code.matchAll(ONMESSAGE_ASSIGNMENT));
    for (const m of matches) {
      const line = code.slice(0, m.index).split("\n").length;
      const text = code.split("\n")[line - 1].trim();
      found.push(`${show(file)}:${line}: ${text}`);
    }
  }
  return found.sort();
}
const patches = sdkPatches();
const kernelWords = kernelCapabilityWords();
const kernelWordCount = kernelWords.reduce((sum, f) => sum + f.words, 0);
const overCeiling = kernelWordCount > wordCeiling;

const ok =
  Number(overCeiling) +
    folderCycles.length +
    fileCycles.length +
    capabilityImports.length +
    kernelImports.length +
    standaloneImports.length +
    patches.length ===
  0;
const summary =
  `architecture: ${folderCycles.length} folder cycles; ${fileCycles.length} file cycles; ` +
  `${capabilityImports.length} capability->capability imports; ${kernelImports.length} kernel->capability imports; ` +
  `${standaloneImports.length} standalone imports; ${kernelWordCount} capability words in kernel code ` +
  `(ceiling ${wordCeiling}); ${patches.length} patches of SDK objects`;

if (asJson) {
  const report = { srcDir: label, files: files.length, ok, summary, unresolved };
  Object.assign(report, {
    folderCycles,
    fileCycles,
    capabilityImports,
    kernelImports,
    standaloneImports,
    patches,
  });
  Object.assign(report, {
    kernelWords: { count: kernelWordCount, ceiling: wordCeiling, files: kernelWords },
  });
  console.log(JSON.stringify(report, null, 2));
} else {
  for (const line of unresolved) console.error(`warning: unresolved import ${line}`);
  for (const cycle of folderCycles) {
    console.log(`folder cycle: ${cycle.folders.join(" <-> ")}`);
    for (const i of cycle.imports) console.log(`  ${showImport(i)}`);
  }
  for (const cycle of fileCycles) {
    const rest = cycle.files.filter((f) => !cycle.chain.includes(f));
    console.log(`file cycle: ${cycle.chain.join(" -> ")}`);
    if (rest.length > 0) console.log(`  same tangle: ${rest.join(", ")}`);
  }
  for (const i of capabilityImports)
    console.log(`capability -> capability (${i.fromFolder} -> ${i.toFolder}): ${showImport(i)}`);
  for (const i of kernelImports)
    console.log(`kernel -> capability (${i.fromFolder} -> ${i.toFolder}): ${showImport(i)}`);
  for (const i of standaloneImports)
    console.log(`standalone (${i.fromFolder} -> ${i.toFolder}): ${showImport(i)}`);
  for (const patch of patches)
    console.log(`patch of an SDK object (wrap it: transports/wrapped-transport.ts): ${patch}`);
  if (overCeiling) {
    console.log(
      `kernel names capabilities ${kernelWordCount} times in code, over the ceiling of ${wordCeiling}: ` +
        "move the new words into the capability's own folder (its Capability, defineCapability)",
    );
    for (const f of kernelWords.slice(0, 10)) console.log(`  ${f.file}: ${f.words}`);
  } else if (kernelWordCount < wordCeiling && root === path.resolve(import.meta.dirname, "../src"))
    console.log(`kernel capability words fell to ${kernelWordCount}: lower KERNEL_WORD_CEILING to match`);
  console.log(summary);
}
process.exit(ok ? 0 : 1);
