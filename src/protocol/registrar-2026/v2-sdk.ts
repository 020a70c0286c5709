import { fieldOf } from "../../common/guards.js";
import { FrugalConfigError } from "../../errors/config-error.js";

/** The parts of the SDK v2 packages the 2026-07-28 registrar uses, loaded on demand. */
export interface V2Sdk {
  readonly server: typeof import("@modelcontextprotocol/server");
  readonly stdio: typeof import("@modelcontextprotocol/server/stdio");
  readonly node: typeof import("@modelcontextprotocol/node");
}

const PACKAGES = "@modelcontextprotocol/server and @modelcontextprotocol/node";

let loading: Promise<V2Sdk> | undefined;
let loaded: V2Sdk | undefined;

/**
 * Imports the SDK v2 packages the first time an app asks for `protocol: "2026-07-28"`.
 * They are optional peers: an app on the default protocol never loads them, so its
 * install and cold start stay as they were. A missing package fails `McpFactory.create`
 * with an error that names the packages to install.
 *
 * Each `import()` carries its own `.catch`: that is how esbuild tells an optional import
 * from a required one, so a user's bundle builds whether or not the packages are installed
 * (bundled when they are; left as a run-time `import()` when they are not).
 */
export function loadV2Sdk(): Promise<V2Sdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/server").catch(rethrow),
    import("@modelcontextprotocol/server/stdio").catch(rethrow),
    import("@modelcontextprotocol/node").catch(rethrow),
  ]).then(
    ([server, stdio, node]) => {
      loaded = { server, stdio, node };
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw missingPackages(error);
    },
  );
  return loading;
}

/** The SDK v2 packages that `loadV2Sdk` loaded; throws when they are not loaded yet. */
export function loadedV2Sdk(): V2Sdk {
  if (!loaded) throw new Error("the SDK v2 packages are not loaded: create the app with McpFactory.create");
  return loaded;
}

function rethrow(error: unknown): never {
  throw error;
}

/** A `FrugalConfigError` naming the packages when they are not installed; other failures as they are. */
export function missingPackages(error: unknown): unknown {
  const code = fieldOf(error, "code");
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return error;
  return new FrugalConfigError(
    'McpFactory.create options, protocol: "2026-07-28"',
    `the SDK v2 packages are not installed (${String(fieldOf(error, "message"))})`,
    `run \`npm install ${PACKAGES.replace(" and ", " ")}\` (optional peer dependencies), or remove \`protocol\` to serve MCP up to 2025-11-25 on @modelcontextprotocol/sdk`,
    { cause: error },
  );
}
