import { credentialFingerprint, type EmsCredential } from "@/lib/ems";
import { DEMO_CREDENTIALS, startSandboxServer, type StartedSandbox } from "@/lib/sandbox/testing";
import { allowPrivateOrigin } from "./env";

/**
 * A standalone sandbox on 127.0.0.1 that the EMS client may reach: its origin is listed in
 * EMS_ALLOW_PRIVATE_ORIGINS until it is closed (loopback is refused otherwise, lib/ems/destination.ts).
 */
export async function startAllowedSandbox(options: Parameters<typeof startSandboxServer>[0] = {}): Promise<StartedSandbox> {
  const sandbox = await startSandboxServer(options);
  const withdraw = allowPrivateOrigin(sandbox.baseUrl);
  return {
    ...sandbox,
    close: async () => {
      withdraw();
      await sandbox.close();
    },
  };
}

/** The sandbox's demo account as an EMS credential, with the fingerprint the client and writer key their state by. */
export function demoCredential(sandbox: Pick<StartedSandbox, "baseUrl">): EmsCredential {
  return {
    fingerprint: credentialFingerprint(sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
    baseUrl: sandbox.baseUrl,
    ...DEMO_CREDENTIALS,
  };
}
