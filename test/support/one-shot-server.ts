import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What a raw request got back. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** A real node:http server on a free loopback port, for testing one request handler. */
export interface OneShotServer {
  readonly port: number;
  /**
   * Sends a request with these headers (a `host` header of the server's address unless
   * `headers` has one or `noHost` is set: fetch can do neither) and an optional body, or
   * `chunks` written one by one.
   */
  send(options: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    noHost?: boolean;
    body?: string | Buffer;
    chunks?: Array<string | Buffer>;
  }): Promise<RawResponse>;
  close(): Promise<void>;
}

/** Starts a server on port 0 that answers every request with `handler`. */
export async function oneShotServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<OneShotServer> {
  // Host-less requests reach the handler (node:http would answer 400 itself), so a guard can be tested.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    send: ({ method = "POST", path = "/", headers = {}, noHost = false, body, chunks }) =>
      new Promise<RawResponse>((resolve, reject) => {
        const all = noHost ? headers : { host: `127.0.0.1:${port}`, ...headers };
        const req = request(
          { host: "127.0.0.1", port, method, path, headers: all, setHost: false },
          (res) => {
            const parts: Buffer[] = [];
            res.on("data", (chunk: Buffer) => parts.push(chunk));
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(parts).toString(),
              }),
            );
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        for (const chunk of chunks ?? []) req.write(chunk);
        req.end(body);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
