import net from "node:net";

/**
 * A TCP proxy between a program and its PostgreSQL, for cutting the connection at a chosen moment:
 * `hold()` stops passing what the program sends (its next query waits in the proxy, "in flight"),
 * `held()` says whether something is waiting, and `cut()` destroys every connection and refuses new
 * ones, as a database host that vanished would ("Connection terminated unexpectedly" in pg).
 * `restore()` passes traffic again.
 */
export interface TcpProxy {
  port: number;
  /** postgresql://… with the proxy's port in place of the database's. */
  urlFor(databaseUrl: string): string;
  hold(): void;
  /** Bytes sent by the program and not passed on since `hold()`. */
  held(): number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; queue: Buffer[] }>();
  let holding = false;
  let refusing = false;

  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream, queue: [] as Buffer[] };
    pairs.add(pair);
    client.on("data", (chunk: Buffer) => {
      if (holding) pair.queue.push(chunk);
      else upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on("close", end);
      socket.on("error", end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;

  const proxy: TcpProxy = {
    port,
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    hold() {
      holding = true;
    },
    held: () => [...pairs].reduce((sum, pair) => sum + pair.queue.reduce((bytes, chunk) => bytes + chunk.length, 0), 0),
    cut() {
      refusing = true;
      for (const pair of pairs) {
        // A reset, not a polite close: the host is gone.
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      holding = false;
      refusing = false;
      for (const pair of pairs) for (const chunk of pair.queue.splice(0)) pair.upstream.write(chunk);
    },
    async close() {
      proxy.cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
