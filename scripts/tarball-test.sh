#!/usr/bin/env bash
# Packed-tarball test: installs frugal-mcp the way a user does, from the tarball `npm publish`
# would upload, into two fresh projects (ESM and CommonJS), compiles the README-style app in
# test/tarball/ with `tsc` (strict, exactOptionalPropertyTypes, experimentalDecorators,
# emitDecoratorMetadata), spawns the compiled stdio server from an SDK client, and checks the
# answers. It also checks what the user's install brings: no native addon and none of the
# packages only the examples and tests use.
#
#   npm run test:tarball                  # packs (prepack: clean dist/, tsc, rolldown), then tests on this `node`
#   TARBALL=path/to.tgz bash scripts/tarball-test.sh   # tests a given tarball (scripts/node-versions.sh)
#   TARBALL_LINT=0 …                      # skips publint and attw on the tarball
#
# Work files go to .tmp/tarball-test/<node major>/; the tarball to .tmp/tarball/.
set -euo pipefail

cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS
major="$(node -p 'process.versions.node.split(".")[0]')"
work="$root/.tmp/tarball-test/node$major"
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

  # The README's install, exactly (the tarball in place of the registry's frugal-mcp).
  local t0=$SECONDS
  npm install --no-audit --no-fund --loglevel=error "$tarball" reflect-metadata zod@4 >/dev/null
  echo "  $kind: \`npm install <tarball> reflect-metadata zod@4\`: $((SECONDS - t0)) s, $(measure)"
  check_install "$kind"
  check_source_maps "$kind"
  # The test's own tools: the compiler and the SDK for the client.
  npm install --no-audit --no-fund --loglevel=error --save-dev \
    "typescript@$typescript_version" "@types/node@$types_node_version" \
    "@modelcontextprotocol/sdk@$sdk_version" >/dev/null

  if ! npx tsc -p tsconfig.json; then
    fail "$kind: tsc (strict, exactOptionalPropertyTypes) failed"
    cd "$root"
    return
  fi
  local expected='from "frugal-mcp"'
  [ "$type" = commonjs ] && expected='require("frugal-mcp")'
  grep -qF "$expected" dist/server.js || fail "$kind: dist/server.js is not $type output (no '$expected')"

  NOTES_CURSOR_SECRET=tarball-test-cursor-secret-0123456789 FRUGAL_LOG_LEVEL=warn node dist/in-process.js \
    || fail "$kind: frugal-mcp/testing or frugal-mcp/s3 failed"
  node dist/client.js || fail "$kind: the stdio client's checks failed"
  cd "$root"
}

echo "› ESM project (\"type\": \"module\")"
run_project esm module
echo "› CommonJS project (\"type\": \"commonjs\", tsc module nodenext emits require())"
run_project cjs commonjs

echo
if [ "${#failures[@]}" -gt 0 ]; then
  echo "› tarball test on Node $(node --version): FAILED in $((SECONDS - started)) s:"
  printf '  - %s\n' "${failures[@]}"
  exit 1
fi
echo "› tarball test on Node $(node --version): passed in $((SECONDS - started)) s"
