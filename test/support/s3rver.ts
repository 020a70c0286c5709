import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** Credentials s3rver accepts. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** A running s3rver with one bucket, and how to stop it. */
export interface S3rver {
  readonly endpoint: string;
  readonly bucket: string;
  stop(): Promise<void>;
}

/**
 * s3rver, a real S3-compatible server, on loopback with one bucket, in a folder of its own
 * (the unit and end-to-end S3 tests share it). It runs in a child process because s3rver
 * signs ListObjectsV2 continuation tokens with DES, which Node's OpenSSL 3 offers only with
 * `--openssl-legacy-provider`: in the test process every truncated listing (so every paged
 * `list()`) would fail with a 500. One s3rver bug is patched: a ranged GET of an empty object
 * is answered `206 bytes 0-0/0` with no body, so the client waits until the connection
 * aborts; S3 answers 416 InvalidRange, as the patch makes s3rver do.
 */
export async function startS3rver(bucket = "frugal-unit"): Promise<S3rver> {
  const directory = mkdtempSync(join(tmpdir(), "frugal-s3rver-unit-"));
  const entry = createRequire(import.meta.url).resolve("s3rver");
  const store = join(entry, "..", "stores", "filesystem.js");
  const script = `
    const S3rver = require(${JSON.stringify(entry)});
    const FilesystemStore = require(${JSON.stringify(store)});
    const getObject = FilesystemStore.prototype.getObject;
    FilesystemStore.prototype.getObject = async function (bucket, key, options) {
      const object = await getObject.call(this, bucket, key, options);
      if (object && object.range && object.size === 0 && object.content) {
        object.content.destroy();
        object.content = null;
      }
      return object;
    };
    const server = new S3rver({
      port: 0, address: "127.0.0.1", silent: true, directory: ${JSON.stringify(directory)},
      configureBuckets: [{ name: ${JSON.stringify(bucket)} }],
    });
    server.run().then(({ port }) => process.stdout.write(JSON.stringify({ port }) + "\\n"));
    process.stdin.on("end", () => server.close().finally(() => process.exit(0)));
    process.stdin.resume();
  `;
  const child: ChildProcess = spawn(process.execPath, ["--openssl-legacy-provider", "-e", script], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.stdin?.end();
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
