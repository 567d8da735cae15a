import { startSandboxServer, type StartedSandbox } from "@/lib/sandbox/testing";
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
