/**
 * Counts database round trips on the wire: a TCP relay between the portal and PostgreSQL that reads
 * the frontend messages of the PostgreSQL protocol and counts every Sync ('S', the end of one
 * extended-protocol query: Parse/Bind/Execute/Sync) and every simple Query ('Q'). node-postgres
 * sends one of these per statement and waits for the answer before the next on that connection,
 * so the count is the number of round trips, whoever sent them (Prisma's queries, BEGIN/COMMIT of a
 * transaction, a background write), with no code or setting in the portal.
 * Backend messages are relayed untouched, and their bytes counted: what the database sent the portal
 * (rows, shared answers' ciphertext above all). SSL is not supported (loopback only).
 */
import net from "node:net";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const QUERY = "Q".charCodeAt(0);
const SYNC = "S".charCodeAt(0);

/** Parses one connection's frontend stream, chunk by chunk, calling `onRoundTrip` per Query/Sync. */
export function frontendMessageCounter(onRoundTrip: () => void): (chunk: Buffer) => void {
  let startup = true; // the first message(s) have no type byte: [int32 length][int32 code]…
  let header = Buffer.alloc(0);
  let skip = 0;
  return (chunk) => {
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at);
        skip -= n;
        at += n;
        continue;
      }
      const headerLength = startup ? 8 : 5;
      const take = Math.min(headerLength - header.length, chunk.length - at);
      header = Buffer.concat([header, chunk.subarray(at, at + take)]);
      at += take;
      if (header.length < headerLength) break;
      if (startup) {
        const length = header.readInt32BE(0);
        const code = header.readInt32BE(4);
        // SSL/GSS requests are answered with one byte, then the real startup message follows.
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) startup = false;
        skip = length - 8;
      } else {
        const type = header[0];
        if (type === QUERY || type === SYNC) onRoundTrip();
        skip = header.readInt32BE(1) - 4;
      }
      header = Buffer.alloc(0);
    }
  };
}

export interface RoundTripCounter {
  /** Where the portal connects instead of the database. */
  port: number;
  /** Round trips relayed so far, over every connection. */
  count(): number;
  /** Bytes the database sent the portal so far, over every connection. */
  bytesFromDatabase(): number;
  close(): Promise<void>;
}

/** `listenPort`: the relay's own port on loopback (default: any free one). */
export async function startRoundTripCounter(target: { host: string; port: number }, listenPort = 0): Promise<RoundTripCounter> {
  let roundTrips = 0;
  let bytesFromDatabase = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    const count = frontendMessageCounter(() => roundTrips++);
    client.on("data", count);
    upstream.on("data", (chunk: Buffer) => (bytesFromDatabase += chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(listenPort, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    count: () => roundTrips,
    bytesFromDatabase: () => bytesFromDatabase,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
