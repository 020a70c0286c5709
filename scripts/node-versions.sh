#!/usr/bin/env bash
# Runs representative checks on Node 22 and 24 while the project itself stays on Node 20:
# the packed-tarball test (scripts/tarball-test.sh: ESM and CommonJS projects, stdio client)
# and the unit tests (`vitest run test/unit`). The whole vitest suite stays on the
# project's Node (`npm test`).
#
#   npm run test:node-versions                 # Node 22 and 24
#   NODE_VERSIONS="24" npm run test:node-versions
#   TARBALL=.tmp/tarball/frugal-mcp-0.1.0.tgz npm run test:node-versions   # reuse a packed tarball
#
# Each Node is installed from the npm registry (the `node` package, `npm install node@22`)
# into .tmp/node<major> once and reused (scripts/conformance.sh shares .tmp/node22). npm
# itself runs on whichever `node` is first on PATH.
set -euo pipefail

cd "$(dirname "$0")/.."
started=$SECONDS
versions="${NODE_VERSIONS:-22 24}"

# --- one tarball for every version --------------------------------------------------------
if [ -z "${TARBALL:-}" ]; then
  mkdir -p .tmp/tarball
  rm -f .tmp/tarball/frugal-mcp-*.tgz
  echo "› npm pack (prepack: clean dist/, tsc -p tsconfig.build.json, rolldown -c rolldown.config.mjs)"
  pack_json="$(npm pack --json --pack-destination .tmp/tarball --loglevel=error)"
  TARBALL="$PWD/.tmp/tarball/$(node -e 'console.log(JSON.parse(process.argv[1])[0].filename)' "$pack_json")"
fi
export TARBALL

failed=()
for major in $versions; do
  bin="$PWD/.tmp/node$major/node_modules/node/bin"
  if ! "$bin/node" --version 2>/dev/null | grep -q "^v$major\."; then
    echo "› installing Node $major (npm package \`node@$major\`) into .tmp/node$major"
    t0=$SECONDS
    npm install --prefix ".tmp/node$major" --no-save --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
    echo "  installed Node $("$bin/node" --version) in $((SECONDS - t0)) s"
  fi
  echo
  echo "═══ Node $("$bin/node" --version) ═══"

  t0=$SECONDS
  # The command line's project (create, npm test, dev, the Inspector, tsx: about 45 s) runs once,
  # on the project's own Node, in `npm run test:tarball`: the CLI uses Node built-ins only.
  if ! PATH="$bin:$PATH" TARBALL_LINT=0 TARBALL_SCAFFOLD=0 bash scripts/tarball-test.sh; then
    failed+=("Node $major: tarball test")
  fi
  echo "› tarball test took $((SECONDS - t0)) s"

  t0=$SECONDS
  echo "› vitest run test/unit on Node $major"
  if ! PATH="$bin:$PATH" npx vitest run test/unit; then
    failed+=("Node $major: vitest run test/unit")
  fi
  echo "› unit tests took $((SECONDS - t0)) s"
done

echo
if [ "${#failed[@]}" -gt 0 ]; then
  echo "› Node versions ($versions): FAILED in $((SECONDS - started)) s:"
  printf '  - %s\n' "${failed[@]}"
  exit 1
fi
echo "› Node versions ($versions): passed in $((SECONDS - started)) s"
