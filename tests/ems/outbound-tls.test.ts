// HTTPS through the outbound door (lib/ems/outbound.ts): it connects to the address it checked, yet
// sends the host name in SNI and checks the certificate against that name, not against the address.
// A throw-away certificate for "ems.test" is made with the openssl command (skipped without it).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamUnavailableError } from "@/lib/ems/errors";
import { emsHttp } from "@/lib/ems/http";
import { setHostResolver, setTrustedCertificates } from "@/lib/ems/outbound";
import { allowPrivateOrigin, ensureEmsTestEnv } from "./support/env";

const hasOpenssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function get(url: string) {
  return emsHttp({ method: "GET", url, path: new URL(url).pathname, headers: { Accept: "application/json" }, requestId: "tls", fingerprint: "tls", retry: false });
}

describe.skipIf(!hasOpenssl)("HTTPS through the door, to a pinned address", () => {
  let server: Server;
  let port: number;
  const serverNames: (string | false)[] = [];
  const cleanups: (() => unknown)[] = [];

  beforeAll(async () => {
    ensureEmsTestEnv();
    const dir = mkdtempSync(path.join(os.tmpdir(), "ems-tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "2",
        "-subj",
        "/CN=ems.test",
        "-addext",
        "subjectAltName=DNS:ems.test",
      ],
      { stdio: "ignore" },
    );
    const pem = { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
    rmSync(dir, { recursive: true, force: true });
    server = createServer(pem, (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"items":[]}');
    });
    server.on("secureConnection", (socket: TLSSocket) => serverNames.push((socket as TLSSocket & { servername: string | false }).servername));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    setTrustedCertificates(pem.cert);
    const previous = setHostResolver(async () => [{ address: "127.0.0.1", family: 4 }]);
    cleanups.push(
      () => setTrustedCertificates(null),
      () => setHostResolver(previous),
      allowPrivateOrigin(`https://ems.test:${port}`),
      allowPrivateOrigin(`https://elsewhere.test:${port}`),
    );
  });
  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("sends the name in SNI and accepts a certificate for that name", async () => {
    const response = await get(`https://ems.test:${port}/api/v1/events`);
    expect(response.status).toBe(200);
    expect(serverNames).toEqual(["ems.test"]);
  });

  it("refuses the same server under a name its certificate does not carry", async () => {
    const error = await get(`https://elsewhere.test:${port}/api/v1/events`).catch((rejected: unknown) => rejected);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).detail).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
  });
});
