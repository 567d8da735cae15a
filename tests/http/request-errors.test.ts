import { describe, expect, it } from "vitest";
import { logRequestError } from "@/lib/http/request-errors";
import { log } from "@/lib/log";
import { captureOutput } from "../ems/support/capture-logs";

const request = { path: "/webhooks?sort=name", method: "GET", headers: {} };
const context = { routerKind: "App Router", routePath: "/webhooks", routeType: "render", renderSource: "react-server-components", revalidateReason: undefined } as const;

async function logged(error: unknown): Promise<Record<string, unknown>[]> {
  const previous = log.level;
  log.level = "info";
  const { lines } = await captureOutput(async () => logRequestError(error, request, context)).finally(() => (log.level = previous));
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("a failed request's log line", () => {
  it("is an error with the route, method and the error's class and message", async () => {
    expect(await logged(new TypeError("boom"))).toEqual([
      expect.objectContaining({ level: "error", event: "request.failed", route: "/webhooks", method: "GET", err: { type: "TypeError", message: "boom" } }),
    ]);
  });

  // React cancels a streaming render with these words when the browser went away (a navigation, a
  // closed tab): not a failure of the portal's, so nothing that would page someone.
  it.each(["The destination stream errored while writing data.", "The destination stream closed early."])(
    "is an info line when the client left mid-answer (%s)",
    async (message) => {
      expect(await logged(new Error(message))).toEqual([expect.objectContaining({ level: "info", event: "request.client_left", route: "/webhooks", method: "GET" })]);
    },
  );

  it("stays an error when those words are only part of another message", async () => {
    expect(await logged(new Error("while rendering: The destination stream closed early. (wrapped)"))).toEqual([expect.objectContaining({ level: "error" })]);
  });
});
