import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostPolicy, rejectForeignHost } from "../../../src/transports/host-guard.js";
import { type OneShotServer, oneShotServer } from "../../support/one-shot-server.js";

let server: OneShotServer;
/** The policy the next request is checked against. */
let policy: HostPolicy = {};

beforeAll(async () => {
  server = await oneShotServer((req, res) => {
    res.end(rejectForeignHost(req, policy) ?? "allowed");
  });
});
afterAll(() => server.close());

const verdict = async (headers: Record<string, string>, with_: HostPolicy = {}) => {
  policy = with_;
  return (await server.send({ method: "GET", headers, noHost: !("host" in headers) })).body;
};

describe("rejectForeignHost", () => {
  it("lets loopback hosts through by default, with or without a port", async () => {
    for (const host of ["localhost", "127.0.0.1:3000", "[::1]:8080", "localhost:1"])
      expect(await verdict({ host })).toBe("allowed");
  });

  it("refuses another host by default, and a missing Host, saying which option to set", async () => {
    expect(await verdict({ host: "evil.example.com" })).toBe(
      'Forbidden: Host "evil.example.com" is not allowed; add it to the allowedHosts option',
    );
    expect(await verdict({})).toBe("Forbidden: the Host header is missing");
  });

  it("accepts listed hosts by name or name and port, and only those", async () => {
    const allowedHosts = ["api.example.com", "admin.example.com:8443"];
    expect(await verdict({ host: "api.example.com:443" }, { allowedHosts })).toBe("allowed");
    expect(await verdict({ host: "admin.example.com:8443" }, { allowedHosts })).toBe("allowed");
    expect(await verdict({ host: "admin.example.com:9000" }, { allowedHosts })).toMatch(/not allowed/);
    expect(await verdict({ host: "localhost" }, { allowedHosts })).toMatch(/not allowed/);
    expect(await verdict({ host: "anything.at.all" }, { allowedHosts: "any" })).toBe("allowed");
  });

  it("checks Origin: loopback origins by default, the listed ones otherwise, and none when absent", async () => {
    expect(await verdict({ host: "localhost", origin: "http://localhost:5173" })).toBe("allowed");
    expect(await verdict({ host: "localhost", origin: "https://evil.example" })).toBe(
      'Forbidden: Origin "https://evil.example" is not allowed; add it to the allowedOrigins option',
    );
    expect(await verdict({ host: "localhost", origin: "not a url" })).toMatch(
      /Origin "not a url" is not allowed/,
    );
    const allowedOrigins = ["https://app.example.com"];
    expect(await verdict({ host: "localhost", origin: "https://app.example.com" }, { allowedOrigins })).toBe(
      "allowed",
    );
    expect(await verdict({ host: "localhost", origin: "http://localhost" }, { allowedOrigins })).toMatch(
      /not allowed/,
    );
    // "any" host still checks the Origin: a browser page elsewhere must not drive a local server.
    expect(await verdict({ host: "x", origin: "https://evil.example" }, { allowedHosts: "any" })).toMatch(
      /Origin .* is not allowed/,
    );
  });
});
