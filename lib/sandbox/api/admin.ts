import { z } from "zod";
import { errorResponse } from "../core/errors";
import { faultRuleSchema } from "../core/faults";
import { JSON_CONTENT_TYPE, type SandboxRequest, type SandboxResponse } from "../core/http-types";
import { secretsEqual } from "./token-endpoint";
import type { SandboxControls } from "./controls";

/**
 * The admin endpoint (`{base}/__admin/...`): faults and knobs for tests and demos. It exists only
 * when an admin secret is configured, and every call must carry it in `X-Sandbox-Admin-Secret`.
 */
export const ADMIN_PREFIX = "/__admin/";
export const ADMIN_SECRET_HEADER = "x-sandbox-admin-secret";

const schemas = {
  tokenLifetime: z.object({ seconds: z.number().int().min(1).max(7 * 86_400) }),
  clock: z.object({ offsetSeconds: z.number().min(-7 * 86_400).max(7 * 86_400) }),
  rateLimit: z.object({ credits: z.number().int().min(1).optional(), windowSeconds: z.number().int().min(1).max(86_400).optional() }),
  quirks: z.object({ webhooksAsObject: z.boolean().optional() }),
};

function ok(payload: Record<string, unknown> = {}): SandboxResponse {
  return { status: 200, headers: { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store" }, body: JSON.stringify({ ok: true, ...payload }) };
}

function parseJson(body: string): unknown {
  if (body.trim() === "") return {};
  return JSON.parse(body);
}

export function handleAdminRequest(request: SandboxRequest, adminSecret: string | undefined, controls: SandboxControls): SandboxResponse {
  if (!adminSecret) return errorResponse(404, "Page not found.");
  const given = request.headers[ADMIN_SECRET_HEADER];
  if (!given || !secretsEqual(given, adminSecret)) return errorResponse(403, "Wrong or missing sandbox admin secret.");

  const action = `${request.method} ${request.path.slice(ADMIN_PREFIX.length)}`;
  let input: unknown;
  try {
    input = parseJson(request.body);
  } catch {
    return errorResponse(400, "The admin request body must be JSON.");
  }
  const parse = <T extends z.ZodType>(schema: T): z.output<T> | SandboxResponse => {
    const result = schema.safeParse(input);
    return result.success ? result.data : errorResponse(400, z.prettifyError(result.error));
  };
  const isResponse = (value: unknown): value is SandboxResponse => typeof value === "object" && value !== null && "status" in value && "body" in value;

  switch (action) {
    case "GET stats":
      return ok({ stats: controls.stats() });
    case "GET state":
      return ok({ state: controls.state() });
    case "POST reset":
      controls.reset();
      return ok();
    case "POST revoke-tokens":
      controls.revokeAllTokens();
      return ok();
    case "POST token-lifetime": {
      const body = parse(schemas.tokenLifetime);
      if (isResponse(body)) return body;
      controls.setTokenLifetime(body.seconds);
      return ok();
    }
    case "POST clock": {
      const body = parse(schemas.clock);
      if (isResponse(body)) return body;
      controls.setClockOffset(body.offsetSeconds);
      return ok();
    }
    case "POST faults": {
      const body = parse(faultRuleSchema);
      if (isResponse(body)) return body;
      controls.injectFaults(body);
      return ok();
    }
    case "DELETE faults":
      controls.clearFaults();
      return ok();
    case "POST rate-limit": {
      const body = parse(schemas.rateLimit);
      if (isResponse(body)) return body;
      controls.setRateLimit(body);
      return ok();
    }
    case "POST quirks": {
      const body = parse(schemas.quirks);
      if (isResponse(body)) return body;
      controls.setQuirks(body);
      return ok();
    }
    default:
      return errorResponse(404, `Unknown admin action "${action}".`);
  }
}
