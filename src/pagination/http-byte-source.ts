import type { ByteSource } from "./byte-chunks.js";

/** Options of `httpByteSource`. */
export interface HttpByteSourceOptions {
  /** The fetch to use (default: global fetch). */
  fetch?: typeof fetch;
  /** Extra request headers (e.g. authorization). */
  headers?: Record<string, string>;
  /** Largest body accepted when the server ignores `Range` and sends everything (default 100 MiB). */
  maxFullBytes?: number;
}

/**
 * An HTTP resource read with `Range` requests. When the server ignores ranges (answers
 * 200 with the whole body), the body is fetched once, kept, and sliced from then on.
 *
 * @example
 * ```ts
 * const source = httpByteSource("https://files.example.com/report.pdf");
 * const chunk = await readByteChunk(source, { offset: 0, byteCount: 512 * 1024 });
 * ```
 */
export function httpByteSource(url: string, options: HttpByteSourceOptions = {}): ByteSource {
  const doFetch = options.fetch ?? fetch;
  const maxFullBytes = options.maxFullBytes ?? 100 * 1024 * 1024;
  let whole: Uint8Array | undefined;
  let knownSize: number | undefined;

  const readWhole = async (response?: Response): Promise<Uint8Array> => {
    if (whole) return whole;
    const full = response ?? (await doFetch(url, { headers: options.headers }));
    if (!full.ok) throw new Error(`GET ${url} answered ${full.status}`);
    const declared = Number(full.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > maxFullBytes) {
      await full.body?.cancel();
      throw new Error(`${url} ignores Range requests and is larger than ${maxFullBytes} bytes`);
    }
    whole = new Uint8Array(await full.arrayBuffer());
    knownSize = whole.byteLength;
    return whole;
  };

  const ranged = async (offset: number, length: number): Promise<Uint8Array> => {
    if (whole) return whole.subarray(offset, offset + length);
    const response = await doFetch(url, {
      headers: { ...options.headers, range: `bytes=${offset}-${offset + length - 1}` },
    });
    if (response.status === 206) {
      const total = /\/(\d+)\s*$/.exec(response.headers.get("content-range") ?? "")?.[1];
      if (total !== undefined) knownSize = Number(total);
      return new Uint8Array(await response.arrayBuffer());
    }
    if (response.status === 200) return (await readWhole(response)).subarray(offset, offset + length);
    if (response.status === 416) return new Uint8Array(0);
    throw new Error(`GET ${url} with Range answered ${response.status}`);
  };

  return {
    async size() {
      // Ranged reads and full reads both record the size; TypeScript cannot see closure writes.
      if (knownSize === undefined) await ranged(0, 1);
      if ((knownSize as number | undefined) === undefined) await readWhole();
      return (knownSize as number | undefined) ?? 0;
    },
    read: ranged,
  };
}
