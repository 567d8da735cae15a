import { beforeEach } from "vitest";
import { credentialFingerprint, flushEmsState, forgetCredential, type EmsCredential } from "@/lib/ems";
import { DEMO_CREDENTIALS, startSandboxServer, type StartedSandbox } from "@/lib/sandbox/testing";
import { fileResource, readThrough } from "@/tests/support/file-resource";
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

/**
 * The sandbox of a whole test file: started before its first test, closed after its last with the
 * client's state (tokens, shared answers in memory) flushed, so that the next file starts cold.
 * Read its fields inside tests and hooks only (they exist once the file's `beforeAll` has run).
 */
export function sandboxForFile(options: Parameters<typeof startSandboxServer>[0] = {}): StartedSandbox {
  return fileResource(
    () => startAllowedSandbox(options),
    async (sandbox) => {
      await flushEmsState();
      await sandbox.close();
    },
  );
}

/** The sandbox's demo account as an EMS credential, with the fingerprint the client and writer key their state by. */
export function demoCredential(sandbox: Pick<StartedSandbox, "baseUrl">): EmsCredential {
  return sandboxCredential(sandbox);
}

/** An account of the sandbox (the demo account unless a key and secret are given) as an EMS credential. */
export function sandboxCredential(
  sandbox: Pick<StartedSandbox, "baseUrl">,
  consumerKey: string = DEMO_CREDENTIALS.consumerKey,
  consumerSecret: string = DEMO_CREDENTIALS.consumerSecret,
): EmsCredential {
  return { fingerprint: credentialFingerprint(sandbox.baseUrl, consumerKey, consumerSecret), baseUrl: sandbox.baseUrl, consumerKey, consumerSecret };
}

/**
 * The file's sandbox (sandboxForFile) and its demo account's credential, both as new before each
 * test: the sandbox's data, counters and faults reset, the client's token for the credential
 * forgotten. Both are read inside tests and hooks only.
 */
export function demoSandboxPerTest(): { sandbox: StartedSandbox; credential: EmsCredential } {
  const sandbox = sandboxForFile();
  const credential = () => demoCredential(sandbox);
  beforeEach(async () => {
    await sandbox.admin.reset();
    await forgetCredential(credential().fingerprint);
  });
  return { sandbox, credential: readThrough(credential) };
}
