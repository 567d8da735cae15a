import type { IncomingMessage, ServerResponse } from "node:http";
import type { SandboxRequest, SandboxResponse } from "../core/http-types";
import { errorResponse } from "../core/errors";
import { stderrLogger, type SandboxLogger } from "../core/log";

/** Anything that answers a SandboxRequest (the Sandbox class), and where its failures are reported. */
export type SandboxHandler = { handle(request: SandboxRequest): SandboxResponse | Promise<SandboxResponse>; logger?: SandboxLogger };

/** Token requests and admin calls are tiny; anything bigger is a client bug or abuse. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * node:http adapter, the fast path: no Web Request/Response objects, and a GET is answered without
 * waiting for a body stream to end.
 */
export function createNodeListener(sandbox: SandboxHandler, options: { prefix?: string } = {}) {
  const prefix = options.prefix ?? "";
  const logger = sandbox.logger ?? stderrLogger;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? "/";
    const questionMark = url.indexOf("?");
    const fullPath = questionMark < 0 ? url : url.slice(0, questionMark);
    if (prefix && !fullPath.startsWith(prefix)) return send(res, errorResponse(404, "Page not found."), req.method, logger);
    const base: Omit<SandboxRequest, "body"> = {
      method: req.method ?? "GET",
      path: fullPath.slice(prefix.length) || "/",
      query: questionMark < 0 ? "" : url.slice(questionMark + 1),
      headers: req.headers as Record<string, string | undefined>,
      baseUrl: `http://${req.headers.host ?? "127.0.0.1"}${prefix}`,
      remoteAddress: req.socket.remoteAddress,
    };
    const hasBody = req.headers["content-length"] !== undefined ? req.headers["content-length"] !== "0" : req.headers["transfer-encoding"] !== undefined;
    if (!hasBody) {
      req.resume();
      return respond(res, sandbox, { ...base, body: "" }, logger);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) return send(res, errorResponse(413, `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`), base.method, logger);
      respond(res, sandbox, { ...base, body: Buffer.concat(chunks).toString("utf8") }, logger);
    });
    req.on("error", () => res.destroy());
  };
}

function respond(res: ServerResponse, sandbox: SandboxHandler, request: SandboxRequest, logger: SandboxLogger): void {
  const failed = (error: unknown) => {
    logger.error({ event: "sandbox.handler_failed", method: request.method, path: request.path, err: error }, "sandbox handler failed");
    send(res, errorResponse(500, "An internal server error occurred."), request.method, logger);
  };
  let result: SandboxResponse | Promise<SandboxResponse>;
  try {
    result = sandbox.handle(request);
  } catch (error) {
    return failed(error);
  }
  if (result instanceof Promise) result.then((response) => send(res, response, request.method, logger), failed);
  else send(res, result, request.method, logger);
}

function send(res: ServerResponse, response: SandboxResponse, method: string | undefined, logger: SandboxLogger): void {
  if (res.destroyed) return;
  response.headers["content-length"] = String(Buffer.byteLength(response.body, "utf8"));
  try {
    res.writeHead(response.status, response.headers);
  } catch (error) {
    // A header value node refuses (e.g. a control character from a hostile Host header in a link).
    logger.error({ event: "sandbox.response_head_refused", status: response.status, err: error }, "sandbox could not write the response head");
    res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    res.end("Internal Server Error");
    return;
  }
  // A string body goes out in one write together with the head (a Buffer would need a writev).
  if (method === "HEAD") res.end();
  else res.end(response.body, "utf8");
}
