#!/usr/bin/env bash
# Packed-tarball test: installs frugal-mcp the way a user does, from the tarball `npm publish`
# would upload, into two fresh projects (ESM and CommonJS), and in each:
#   - compiles with `tsc` (strict, exactOptionalPropertyTypes, experimentalDecorators,
#     emitDecoratorMetadata, `skipLibCheck: false`, so every published declaration file the
#     imports reach is checked) the README-style app in test/tarball/ and the README's quick
#     start, copied from README.md as it is written;
#   - checks that none of the optional peer dependencies is installed (or reachable), so the
#     compile above proves the published types need none of them;
#   - spawns the compiled servers (the app and the quick start) from an SDK client over stdio
#     and checks the answers;
#   - bundles the compiled app with esbuild and with rolldown, as a user would without any
#     flag but the format (ESM project: esbuild `--format=esm`, rolldown's default; CommonJS
#     project: esbuild's default, rolldown `-f cjs`), and runs each bundle the same way;
#   - then installs vitest (an optional peer) and runs test/tarball/vitest/ with it: the
#     matchers of `frugal-mcp/testing/vitest` against the compiled server.
# It also checks what the user's install brings: no native addon and none of the packages only
# the examples and tests use.
# Then the command line, as a new user meets it: the installed `frugal-mcp` bin creates a
# project (frugal-mcp from the tarball), whose `npm install`, `npm test`, `npm run dev` (the
# Inspector CLI lists its tools; a change restarts it) and `npm run inspect` must work, and the
# README's quick start must run under tsx with `--import frugal-mcp/register` (and under plain
# node with it).
#
#   npm run test:tarball                  # packs (prepack: clean dist/, tsc, rolldown), then tests on this `node`
#   TARBALL=path/to.tgz bash scripts/tarball-test.sh   # tests a given tarball (scripts/node-versions.sh)
#   TARBALL_LINT=0 …                      # skips publint and attw on the tarball
#   TARBALL_SCAFFOLD=0 …                  # skips the command line's project (create, dev, tsx)
#
# The projects live outside the repository (TARBALL_WORK, default $TMPDIR/frugal-mcp-tarball-test,
# one folder per Node major): below it, Node and tsc would find the repository's own
# node_modules, which holds the optional peers, and the check would prove nothing. The
# tarball goes to .tmp/tarball/.
set -euo pipefail

cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS
major="$(node -p 'process.versions.node.split(".")[0]')"
work="${TARBALL_WORK:-${TMPDIR:-/tmp}/frugal-mcp-tarball-test}/node$major"
case "$work/" in "$root"/*) echo "TARBALL_WORK must be outside the repository ($root)" >&2; exit 2 ;; esac
echo "› tarball test on Node $(node --version), npm $(npm --version)"

# Versions the fixture uses: the repo's own, wherever the repo lists them.
version_of() {
  node -e '
    const pkg = require(process.argv[1]);
    const name = process.argv[2];
    const found = [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies].find((d) => d && d[name]);
    if (!found) { console.error(`package.json lists no ${name}`); process.exit(1); }
    console.log(found[name]);
  ' "$root/package.json" "$1"
}
typescript_version="$(version_of typescript)"
types_node_version="$(version_of @types/node)"
sdk_version="$(version_of @modelcontextprotocol/sdk)"
rolldown_version="$(version_of rolldown)"
vitest_version="$(version_of vitest)"
# esbuild is no dependency of the repository: the version users bundle with, pinned here.
esbuild_version="0.28.2"
# The optional peer dependencies (package.json peerDependenciesMeta): none may be installed.
optional_peers="$(node -p '
  const meta = require(process.argv[1]).peerDependenciesMeta ?? {};
  Object.keys(meta).filter((name) => meta[name].optional).join(" ")
' "$root/package.json")"

# --- the tarball -------------------------------------------------------------------------
if [ -n "${TARBALL:-}" ]; then
  tarball="$(cd "$(dirname "$TARBALL")" && pwd)/$(basename "$TARBALL")"
  echo "› testing $tarball"
else
  mkdir -p .tmp/tarball
  rm -f .tmp/tarball/frugal-mcp-*.tgz
  echo "› npm pack (prepack: clean dist/, tsc -p tsconfig.build.json, rolldown -c rolldown.config.mjs)"
  pack_json="$(npm pack --json --pack-destination .tmp/tarball --loglevel=error)"
  tarball="$root/.tmp/tarball/$(node -e 'console.log(JSON.parse(process.argv[1])[0].filename)' "$pack_json")"
  node -e '
    const [p] = JSON.parse(process.argv[1]);
    const maps = p.files.filter((f) => f.path.endsWith(".map")).length;
    const sources = p.files.filter((f) => f.path.startsWith("src/")).length;
    const js = p.files.filter((f) => f.path.endsWith(".js")).map((f) => f.path);
    console.log(`  ${p.filename}: ${(p.size / 1024).toFixed(0)} KiB packed, ${(p.unpackedSize / 1024 / 1024).toFixed(1)} MiB unpacked, ${p.entryCount} files (${maps} source maps, ${sources} sources)`);
    console.log(`  JavaScript (bundled by rolldown.config.mjs): ${js.join(", ")}`);
  ' "$pack_json"
fi
[ -f "$tarball" ] || { echo "no tarball at $tarball" >&2; exit 1; }

failures=()
fail() {
  echo "✗ $*" >&2
  failures+=("$*")
}

# --- publint and attw on the tarball (once, on the project's own Node) -------------------
if [ "${TARBALL_LINT:-1}" != 0 ]; then
  echo "› publint"
  npx --yes publint@0.3.25 "$tarball" || fail "publint reports problems"
  echo "› attw (rules: .attw.json)"
  npx --yes @arethetypeswrong/cli@0.18.5 "$tarball" --format ascii || fail "attw reports problems"
fi

# --- a fresh project per module system ----------------------------------------------------
tsconfig='{
  "compilerOptions": {
    "target": "ES2022",
    "module": "nodenext",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "skipLibCheck": false,
    "types": ["node"],
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}'

# Fails when the install holds a native addon or a package only the examples/tests use.
check_install() {
  local kind="$1"
  local addons
  addons="$(find node_modules \( -name '*.node' -o -name binding.gyp \) -type f | awk 'NR <= 5')"
  [ -z "$addons" ] || fail "$kind: the install has native addons: $(echo "$addons" | tr '\n' ' ')"
  local name
  for name in @electric-sql/pglite pg s3rver fast-check; do
    if [ -n "$(find node_modules -path "*node_modules/$name/package.json" -print -quit)" ]; then
      fail "$kind: the install has \`$name\` (examples and tests only): $(npm ls "$name" --all 2>/dev/null | tail -n +2 | tr -s ' \n' ' ')"
    fi
  done
}

# Fails when a shipped source map names a source the package does not ship.
check_source_maps() {
  local kind="$1" missing
  missing="$(node -e '
    const { readFileSync, existsSync, readdirSync } = require("node:fs");
    const { dirname, resolve } = require("node:path");
    const root = "node_modules/frugal-mcp";
    const missing = [];
    for (const file of readdirSync(root, { recursive: true })) {
      if (!file.endsWith(".map")) continue;
      const map = JSON.parse(readFileSync(resolve(root, file), "utf8"));
      (map.sources ?? []).forEach((source, i) => {
        if (!map.sourcesContent?.[i] && !existsSync(resolve(root, dirname(file), map.sourceRoot ?? "", source)))
          missing.push(`${file} -> ${source}`);
      });
    }
    console.log(missing.slice(0, 5).join(" "));
  ')"
  [ -z "$missing" ] || fail "$kind: source maps name sources the package does not ship: $missing"
}

# Fails when an optional peer dependency can be resolved from the project: the compile would
# then not prove that the published types need none of them.
check_no_optional_peers() {
  local kind="$1" name found
  for name in $optional_peers; do
    found="$(node -e '
      const { existsSync } = require("node:fs");
      const { dirname, join } = require("node:path");
      for (let dir = process.cwd(); ; dir = dirname(dir)) {
        const candidate = join(dir, "node_modules", process.argv[1]);
        if (existsSync(candidate)) { console.log(candidate); break; }
        if (dirname(dir) === dir) break;
      }
    ' "$name")"
    [ -z "$found" ] || fail "$kind: the optional peer $name is installed ($found): the compile proves nothing"
  done
}

# The README's quick start, as it is written: the first TypeScript block under "## Quick start".
copy_quickstart() {
  node -e '
    const readme = require("node:fs").readFileSync(process.argv[1], "utf8");
    const section = readme.slice(readme.indexOf("\n## Quick start"));
    const block = /\n```ts\n([\s\S]*?)\n```/.exec(section);
    if (!block) { console.error("README.md: no ```ts block under ## Quick start"); process.exit(1); }
    process.stdout.write(`${block[1]}\n`);
  ' "$root/README.md" >"$1"
}

# Bundles dist/server.js with a bundler and runs the bundle with the stdio client.
# Usage: bundle_and_run <kind> <label> <bundle entry> <command…>
bundle_and_run() {
  local kind="$1" label="$2" entry="$3"
  shift 3
  local log="$work/$kind-$label.log"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "$kind: $label bundle failed: $*"
    return
  fi
  local warnings
  warnings="$(grep -ciE 'warn|\[[A-Z_]+\]' "$log" || true)"
  echo "  $kind: $label bundle $(du -k "$entry" | cut -f1) KiB${warnings:+, $warnings warning lines (log: $log)}"
  grep -q "McpFactory" "$entry" || fail "$kind: the $label bundle does not hold frugal-mcp's code"
  node dist/client.js "$entry" || fail "$kind: the $label bundle's answers failed"
}

# Number of packages and size of node_modules.
measure() {
  local packages size
  packages="$( (npm ls --all --parseable 2>/dev/null || true) | tail -n +2 | sort -u | wc -l | tr -d ' ')"
  size="$(du -sm node_modules | cut -f1)"
  echo "$packages packages, $size MB"
}

run_project() {
  local kind="$1" type="$2"
  local dir="$work/$kind"
  rm -rf "$dir"
  mkdir -p "$dir/src"
  cd "$dir"
  printf '{ "name": "tarball-test-%s", "version": "1.0.0", "private": true, "type": "%s" }\n' "$kind" "$type" \
    >package.json
  printf '%s\n' "$tsconfig" >tsconfig.json
  cp "$root"/test/tarball/*.ts src/
  copy_quickstart src/quickstart.ts

  # The README's install, exactly (the tarball in place of the registry's frugal-mcp).
  local t0=$SECONDS
  npm install --no-audit --no-fund --loglevel=error "$tarball" reflect-metadata zod@4 >/dev/null
  echo "  $kind: \`npm install <tarball> reflect-metadata zod@4\`: $((SECONDS - t0)) s, $(measure)"
  check_install "$kind"
  check_source_maps "$kind"
  check_no_optional_peers "$kind"
  # The test's own tools: the compiler and the SDK for the client.
  npm install --no-audit --no-fund --loglevel=error --save-dev \
    "typescript@$typescript_version" "@types/node@$types_node_version" \
    "@modelcontextprotocol/sdk@$sdk_version" "esbuild@$esbuild_version" "rolldown@$rolldown_version" >/dev/null
  check_no_optional_peers "$kind"

  # A type error is a failure; tsc still writes the JavaScript, so the checks below still run.
  npx tsc -p tsconfig.json ||
    fail "$kind: tsc (strict, exactOptionalPropertyTypes, skipLibCheck: false) failed on test/tarball/*.ts or the README quick start (src/quickstart.ts)"
  if [ ! -f dist/server.js ]; then
    fail "$kind: tsc wrote no dist/server.js"
    cd "$root"
    return
  fi
  local expected='from "frugal-mcp"'
  [ "$type" = commonjs ] && expected='require("frugal-mcp")'
  grep -qF "$expected" dist/server.js || fail "$kind: dist/server.js is not $type output (no '$expected')"

  NOTES_CURSOR_SECRET=tarball-test-cursor-secret-0123456789 FRUGAL_LOG_LEVEL=warn node dist/in-process.js \
    || fail "$kind: frugal-mcp/testing or frugal-mcp/s3 failed"
  node dist/client.js || fail "$kind: the stdio client's checks failed"
  node dist/client.js dist/quickstart.js quickstart || fail "$kind: the README quick start's answers failed"

  # Bundles of the compiled app, as a user makes them: no flag but the output format.
  if [ "$type" = module ]; then
    bundle_and_run "$kind" esbuild bundle/esbuild/server.js \
      npx esbuild dist/server.js --bundle --platform=node --format=esm --outfile=bundle/esbuild/server.js
    bundle_and_run "$kind" rolldown bundle/rolldown/server.js \
      npx rolldown dist/server.js --platform node --dir bundle/rolldown
  else
    bundle_and_run "$kind" esbuild bundle/esbuild/server.js \
      npx esbuild dist/server.js --bundle --platform=node --outfile=bundle/esbuild/server.js
    bundle_and_run "$kind" rolldown bundle/rolldown/server.js \
      npx rolldown dist/server.js --platform node --format cjs --dir bundle/rolldown
  fi

  # frugal-mcp/testing/vitest, last: vitest is an optional peer, so it is installed only now that
  # the checks above proved the other entries need none of it (in-process.js measured a catalogue
  # with frugal-mcp/testing alone). A test using its matchers must compile, and pass.
  npm install --no-audit --no-fund --loglevel=error --save-dev "vitest@$vitest_version" >/dev/null
  mkdir -p vitest-check
  cp "$root"/test/tarball/vitest/*.mts vitest-check/
  # skipLibCheck: vitest's own declarations are not ours to hold to exactOptionalPropertyTypes.
  printf '{ "extends": "../tsconfig.json", "compilerOptions": { "noEmit": true, "rootDir": ".", "skipLibCheck": true }, "include": ["."] }\n' \
    >vitest-check/tsconfig.json
  npx tsc -p vitest-check/tsconfig.json || fail "$kind: tsc failed on a test using frugal-mcp/testing/vitest (test/tarball/vitest/)"
  NO_COLOR=1 npx vitest run --root vitest-check >vitest-check.log 2>&1 \
    && echo "  $kind: frugal-mcp/testing/vitest: $(grep -E 'Tests +[0-9]+ passed' vitest-check.log | tr -s ' ')" \
    || fail "$kind: frugal-mcp/testing/vitest's matchers failed: $(tail -n 30 vitest-check.log)"
  cd "$root"
}

echo "› ESM project (\"type\": \"module\")"
run_project esm module
echo "› CommonJS project (\"type\": \"commonjs\", tsc module nodenext emits require())"
run_project cjs commonjs

# --- the command line: create, npm test, npm run dev + the Inspector, the quick start under tsx
# Waits up to $2 seconds for the file $1 to contain the extended regex $3 (at least $4 times).
wait_for() {
  local file="$1" seconds="$2" pattern="$3" times="${4:-1}" i found
  for ((i = 0; i < seconds * 4; i++)); do
    # grep -c prints nothing when the file is not there yet: count that as 0.
    found=$(grep -cE "$pattern" "$file" 2>/dev/null)
    [ "${found:-0}" -ge "$times" ] && return 0
    sleep 0.25
  done
  return 1
}

run_scaffold() {
  local parent="$work/scaffold" t0=$SECONDS dev_pid port
  rm -rf "$parent"
  mkdir -p "$parent"
  cd "$parent"
  # The bin the ESM project installed from the tarball, with stdin not a terminal: no question.
  "$work/esm/node_modules/.bin/frugal-mcp" create demo --from "$tarball" </dev/null >create.log \
    || { fail "scaffold: frugal-mcp create demo failed: $(cat create.log)"; cd "$root"; return; }
  cd demo
  npm install --no-audit --no-fund --loglevel=error >/dev/null || { fail "scaffold: npm install failed"; cd "$root"; return; }
  echo "  scaffold: \`frugal-mcp create demo\` + \`npm install\`: $((SECONDS - t0)) s, $(measure)"
  t0=$SECONDS
  npm test >test.log 2>&1 || fail "scaffold: the generated project's npm test failed: $(tail -n 30 test.log)"
  echo "  scaffold: \`npm test\` (tsc --noEmit, vitest): $((SECONDS - t0)) s"

  # npm run dev in a process group of its own (so the whole tree stops with it), on a free port.
  t0=$SECONDS
  port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
  PORT="$port" setsid npm run dev >dev.log 2>&1 &
  dev_pid=$!
  if ! wait_for dev.log 60 "listening on http://127.0.0.1:$port/mcp"; then
    fail "scaffold: npm run dev did not serve: $(tail -n 20 dev.log)"
  else
    PORT="$port" npm run inspect -- --cli --method tools/list >inspect.log 2>&1 \
      && grep -q '"name": "list_tasks"' inspect.log \
      || fail "scaffold: the Inspector CLI (npm run inspect) did not list list_tasks: $(tail -n 20 inspect.log)"
    sed -i 's/"Add a task"/"Add a task, restarted"/' src/tasks/tasks.service.ts
    if wait_for dev.log 60 "listening on http://127.0.0.1:$port/mcp" 2; then
      npx --yes @modelcontextprotocol/inspector@2 --cli "http://127.0.0.1:$port/mcp" --transport http \
        --method tools/list 2>/dev/null | grep -q "Add a task, restarted" \
        || fail "scaffold: after a change, npm run dev did not serve the new description"
    else
      fail "scaffold: npm run dev did not restart after a change: $(tail -n 20 dev.log)"
    fi
  fi
  kill -TERM -- "-$dev_pid" 2>/dev/null || true
  wait "$dev_pid" 2>/dev/null || true
  echo "  scaffold: \`npm run dev\`, the Inspector, a restart: $((SECONDS - t0)) s"

  # The README's quick start, as it stands, under tsx with the metadata hook and under plain node.
  t0=$SECONDS
  npm install --no-audit --no-fund --loglevel=error --save-dev tsx @swc/core >/dev/null \
    || { fail "scaffold: npm install tsx @swc/core failed"; cd "$root"; return; }
  node -e '
    const readme = require("node:fs").readFileSync(process.argv[1], "utf8");
    const section = readme.slice(readme.indexOf("\n## Quick start"));
    const block = /```ts\n([\s\S]*?)```/.exec(section);
    if (!block || !block[1].includes("McpFactory.create")) { console.error("no quick start block in the README"); process.exit(1); }
    require("node:fs").writeFileSync("quickstart.ts", block[1]);
  ' "$root/README.md" || fail "scaffold: could not extract the README's quick start"
  local runner
  for runner in "npx tsx --import frugal-mcp/register" "node --import frugal-mcp/register"; do
    # shellcheck disable=SC2086 # the runner is words on purpose
    npx --yes @modelcontextprotocol/inspector@2 --cli $runner quickstart.ts --method tools/list \
      >quickstart.log 2>&1 && grep -q '"name": "list_notes"' quickstart.log \
      || fail "scaffold: the README quick start under \`$runner\` did not list list_notes: $(tail -n 20 quickstart.log)"
  done
  # Without the hook, tsx emits no metadata: the start-up error must name the fix.
  if timeout 30 npx tsx quickstart.ts </dev/null >no-hook.log 2>&1; then
    fail "scaffold: the quick start started under tsx without the hook (expected the metadata error)"
  fi
  grep -q "frugal-mcp/register" no-hook.log || fail "scaffold: tsx's metadata error does not name frugal-mcp/register: $(tail -n 5 no-hook.log)"
  echo "  scaffold: README quick start under tsx and node with --import frugal-mcp/register: $((SECONDS - t0)) s"
  cd "$root"
}

if [ "${TARBALL_SCAFFOLD:-1}" != 0 ]; then
  echo "› the command line: frugal-mcp create, npm test, npm run dev + the Inspector, the quick start under tsx"
  run_scaffold
fi

echo
if [ "${#failures[@]}" -gt 0 ]; then
  echo "› tarball test on Node $(node --version): FAILED in $((SECONDS - started)) s:"
  printf '  - %s\n' "${failures[@]}"
  exit 1
fi
echo "› tarball test on Node $(node --version): passed in $((SECONDS - started)) s"
