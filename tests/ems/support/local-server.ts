import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A tiny HTTP server on 127.0.0.1 that counts what reaches it: a stand-in for an internal service. */
export interface LocalServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request that reached it, in order. */
  requests: { method: string; url: string; host: string | undefined; authorization: string | undefined }[];
  /** TCP connections opened to it (a refused destination must open none). */
  connections: number;
  close(): Promise<void>;
}

export async function startLocalServer(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<LocalServer> {
  const state: Pick<LocalServer, "requests" | "connections"> = { requests: [], connections: 0 };
  const server = createServer((request, response) => {
    state.requests.push({ method: request.method ?? "", url: request.url ?? "", host: request.headers.host, authorization: request.headers.authorization });
    answer(request, response);
  });
  server.on("connection", () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Answers JSON with a status. */
export function json(status: number, body: unknown): (request: IncomingMessage, response: ServerResponse) => void {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
}
