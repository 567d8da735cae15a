// The sandbox as the portal embeds it: served under /sandbox on a loopback port, so the actions that
// build the sandbox URL from the request's Host header (apply-sandbox-credentials) reach it. While it
// runs, PORT names its port: it stands for this portal, whose own /sandbox the EMS client may reach
// over plain HTTP on loopback (lib/ems/destination.ts); nothing else on loopback is let through.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeListener } from "@/lib/sandbox/adapters/node-http";
import { SANDBOX_MOUNT_PATH } from "@/lib/sandbox/embedded";
import { Sandbox } from "@/lib/sandbox/sandbox";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { fileResource } from "@/tests/support/file-resource";

export interface PortalSandbox {
  /** `127.0.0.1:<port>`: the Host header of a request to "the portal". */
  host: string;
  /** `http://127.0.0.1:<port>/sandbox`: an EMS base URL. */
  baseUrl: string;
  /** The sandbox itself, for its controls (faults, edits of the data). */
  sandbox: Sandbox;
  close(): Promise<void>;
}

export async function startPortalSandbox(): Promise<PortalSandbox> {
  const sandbox = new Sandbox();
  const server = createServer(createNodeListener(sandbox, { prefix: SANDBOX_MOUNT_PATH }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const host = `127.0.0.1:${port}`;
  const previousPort = process.env.PORT;
  process.env.PORT = String(port);
  return {
    host,
    baseUrl: `http://${host}${SANDBOX_MOUNT_PATH}`,
    sandbox,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (previousPort === undefined) delete process.env.PORT;
        else process.env.PORT = previousPort;
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * The portal's sandbox for a whole test file, with the EMS test environment set: started before its
 * first test, closed after its last. Read its fields inside tests and hooks only.
 */
export function portalSandboxForFile(): PortalSandbox {
  return fileResource(
    async () => {
      ensureEmsTestEnv();
      return startPortalSandbox();
    },
    (sandbox) => sandbox.close(),
  );
}
