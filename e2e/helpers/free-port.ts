import net from "node:net";

/** A range of ports, both ends included. */
export interface PortRange {
  first: number;
  last: number;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    // No host: every address, IPv6 and IPv4, as `next dev` listens.
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * The first port of the range nobody listens on right now, for a server a spec starts itself on a
 * machine shared with other runs, each keeping to its own range (e2e/helpers/config.ts).
 */
export async function freePortIn({ first, last }: PortRange, except: number[] = []): Promise<number> {
  for (let port = first; port <= last; port++) {
    if (!except.includes(port) && (await isFree(port))) return port;
  }
  throw new Error(`no free port in ${first}-${last}`);
}

/** A port nobody listens on now, on the IPv4 loopback, chosen by the system. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
