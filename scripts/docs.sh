#!/usr/bin/env bash
# API reference with TypeDoc, written to .tmp/api-docs. TypeDoc runs on TypeScript <= 6 while the
# library builds with TypeScript 7, so it lives in its own small project (tools/docs, with its own
# lockfile) instead of the library's devDependencies. The run fails on a broken {@link} or on a
# public export (class, function, interface, type, variable) without a doc comment.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x tools/docs/node_modules/.bin/typedoc ]; then
  npm ci --prefix tools/docs --no-audit --no-fund >/dev/null
fi
node tools/docs/node_modules/typedoc/bin/typedoc "$@"
