import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeListener } from "./adapters/node-http";
import type { SandboxOptions } from "./core/config";
import { Sandbox } from "./sandbox";

export type RunningSandboxServer = { sandbox: Sandbox; server: Server; baseUrl: string; close(): Promise<void> };

/** Starts the sandbox on node:http, bound to `host` (loopback by default). Port 0 picks a free port. */
export async function listenSandbox(options: SandboxOptions & { port?: number; host?: string; warmUp?: boolean } = {}): Promise<RunningSandboxServer> {
  const sandbox = new Sandbox(options);
  if (options.warmUp !== false) sandbox.warmUp();
  const server = createServer({ keepAliveTimeout: 5_000 }, createNodeListener(sandbox));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return {
    sandbox,
    server,
    baseUrl: `http://${urlHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        sandbox.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
