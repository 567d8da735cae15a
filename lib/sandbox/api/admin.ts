import { z } from "zod";
import { errorResponse } from "../core/errors";
import { faultRuleSchema } from "../core/faults";
import { JSON_CONTENT_TYPE, type SandboxRequest, type SandboxResponse } from "../core/http-types";
import { EditRejected, type AppliedEdit } from "../data/edits";
import { editsRequestSchema } from "./edit-schema";
import { secretsEqual } from "./token-endpoint";
import type { SandboxControls } from "./controls";

/**
 * The admin endpoint (`{base}/__admin/...`): faults and knobs for tests and demos. It exists only
 * when an admin secret is configured, and every call must carry it in `X-Sandbox-Admin-Secret`.
 */
export const ADMIN_PREFIX = "/__admin/";
export const ADMIN_SECRET_HEADER = "x-sandbox-admin-secret";

const schemas = {
  tokenLifetime: z.object({
    seconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 86_400),
  }),
  clock: z.object({
    offsetSeconds: z
      .number()
      .min(-7 * 86_400)
      .max(7 * 86_400),
  }),
  rateLimit: z.object({ credits: z.number().int().min(1).optional(), windowSeconds: z.number().int().min(1).max(86_400).optional() }),
  quirks: z.object({ webhooksAsObject: z.boolean().optional() }),
};

function ok(payload: Record<string, unknown> = {}): SandboxResponse {
  return { status: 200, headers: { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store" }, body: JSON.stringify({ ok: true, ...payload }) };
}

/** Validates the JSON body with `schema`, then applies it; a bad body is a 400 naming the problem. */
function withBody<T extends z.ZodType>(schema: T, input: unknown, apply: (value: z.output<T>) => void): SandboxResponse {
  const result = schema.safeParse(input);
  if (!result.success) return errorResponse(400, z.prettifyError(result.error));
  apply(result.data);
  return ok();
}

/**
 * `POST edits`: the account's explicit edits, then its random ones. A body, account, group or
 * webhook that does not fit is a 400 that says which, and the batch it was in is not applied.
 */
function applyEdits(controls: SandboxControls, input: unknown): SandboxResponse {
  const result = editsRequestSchema.safeParse(input);
  if (!result.success) return errorResponse(400, z.prettifyError(result.error));
  const { account, edits, random } = result.data;
  try {
    const applied: AppliedEdit[] = [];
    if (edits) applied.push(...controls.applyEdits(account, edits));
    if (random) applied.push(...controls.applyRandomEdits(account, random));
    return ok({ applied });
  } catch (error) {
    if (error instanceof EditRejected) return errorResponse(400, error.message);
    throw error;
  }
}

function adminActions(controls: SandboxControls): Record<string, (input: unknown) => SandboxResponse> {
  return {
    "GET stats": () => ok({ stats: controls.stats() }),
    "GET state": () => ok({ state: controls.state() }),
    "POST reset": () => {
      controls.reset();
      return ok();
    },
    "POST revoke-tokens": () => {
      controls.revokeAllTokens();
      return ok();
    },
    "DELETE faults": () => {
      controls.clearFaults();
      return ok();
    },
    "POST token-lifetime": (input) => withBody(schemas.tokenLifetime, input, ({ seconds }) => controls.setTokenLifetime(seconds)),
    "POST clock": (input) => withBody(schemas.clock, input, ({ offsetSeconds }) => controls.setClockOffset(offsetSeconds)),
    "POST faults": (input) => withBody(faultRuleSchema, input, (rule) => controls.injectFaults(rule)),
    "POST rate-limit": (input) => withBody(schemas.rateLimit, input, (settings) => controls.setRateLimit(settings)),
    "POST quirks": (input) => withBody(schemas.quirks, input, (quirks) => controls.setQuirks(quirks)),
    "POST edits": (input) => applyEdits(controls, input),
  };
}

export function handleAdminRequest(request: SandboxRequest, adminSecret: string | undefined, controls: SandboxControls): SandboxResponse {
  if (!adminSecret) return errorResponse(404, "Page not found.");
  const given = request.headers[ADMIN_SECRET_HEADER];
  if (!given || !secretsEqual(given, adminSecret)) return errorResponse(403, "Wrong or missing sandbox admin secret.");

  const action = `${request.method} ${request.path.slice(ADMIN_PREFIX.length)}`;
  const run = adminActions(controls)[action];
  if (!run) return errorResponse(404, `Unknown admin action "${action}".`);
  let input: unknown = {};
  try {
    if (request.body.trim() !== "") input = JSON.parse(request.body);
  } catch {
    return errorResponse(400, "The admin request body must be JSON.");
  }
  return run(input);
}
