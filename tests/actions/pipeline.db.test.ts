// The server-action pipeline (lib/actions/pipeline.ts) on its own, with handlers written here:
// who gets through, what reaches the handler, and what each kind of failure answers and logs.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { notFound, redirect } from "next/navigation";
import { isHTTPAccessFallbackError } from "next/dist/client/components/http-access-fallback/http-access-fallback";
import { z } from "zod";
import { authedAction, publicAction, type AuthedActionContext } from "@/lib/actions/pipeline";
import { FieldError, GENERIC_ERROR_MESSAGE, SafeError } from "@/lib/errors";
import { IDLE } from "@/lib/forms/action-state";
import { captureOutput } from "@/tests/ems/support/capture-logs";
import { withLogLevel } from "@/tests/ems/support/env";
import { createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, formData, redirectOf } from "./support/call";
import { signInAs, signedOut } from "./support/request";

const schema = z.object({ name: z.string().trim().min(1, { error: "Enter a name." }), count: z.coerce.number().int({ error: "A whole number." }) });

describe("authedAction", () => {
  beforeEach(() => signedOut({ path: "/team" }));

  it("sends a signed-out caller to sign-in, back to the page they were on, before reading the input", async () => {
    const handler = vi.fn(async () => ({ message: "ran" }));
    const action = authedAction({ name: "test.signed-out", schema }, handler);
    await expectSignInRedirect(call(action, { name: "" }), "/team");
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses a forged cookie like no cookie at all", async () => {
    const handler = vi.fn(async () => undefined);
    signedOut({ path: "/settings", headers: { cookie: "next-auth.session-token=not-a-jwt" } });
    await expectSignInRedirect(call(authedAction({ name: "test.forged", schema }, handler), { name: "x", count: "1" }), "/settings");
    expect(handler).not.toHaveBeenCalled();
  });

  it("hands the handler the parsed input, the actor from the session, the client's address and a request id", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    let seen: { input: unknown; context: AuthedActionContext } | undefined;
    const action = authedAction({ name: "test.context", schema }, async (input, context) => {
      seen = { input, context };
      return { message: "done", data: { count: input.count } };
    });
    expect(await call(action, { name: "  Ada ", count: "3", extra: "ignored" })).toEqual({ status: "success", message: "done", data: { count: 3 } });
    expect(seen!.input).toEqual({ name: "Ada", count: 3 });
    expect(seen!.context.actor).toMatchObject({ userId: owner.userId, teamId: owner.teamId, role: "OWNER" });
    expect(seen!.context.ip).toBe("203.0.113.7");
    expect(seen!.context.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives every call its own request id", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const ids: string[] = [];
    const action = authedAction({ name: "test.ids", schema: z.object({}) }, async (_input, { requestId }) => void ids.push(requestId));
    await call(action);
    await call(action);
    expect(new Set(ids).size).toBe(2);
  });

  it("answers invalid input with each field's first error, keyed by input name, and never runs the handler", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const handler = vi.fn(async () => undefined);
    const action = authedAction({ name: "test.invalid", schema }, handler);
    expect(await call(action, { name: " ", count: "1.5" })).toEqual({ status: "error", fieldErrors: { name: "Enter a name.", count: "A whole number." } });
    const withMessage = authedAction({ name: "test.invalid-message", schema, invalidMessage: "Check the form." }, handler);
    expect(await call(withMessage, { count: "2" })).toEqual({ status: "error", message: "Check the form.", fieldErrors: { name: expect.any(String) } });
    expect(handler).not.toHaveBeenCalled();
  });

  it("treats a crafted call without FormData as an empty form, and ignores Next's $ACTION_ fields", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const handler = vi.fn(async () => undefined);
    const strict = authedAction({ name: "test.crafted", schema: z.strictObject({ name: z.string({ error: "Enter a name." }) }) }, handler);
    expect(await strict(IDLE, "name=x" as unknown as FormData)).toEqual({ status: "error", fieldErrors: { name: "Enter a name." } });
    expect(await strict(IDLE, { name: "x" } as unknown as FormData)).toEqual({ status: "error", fieldErrors: { name: "Enter a name." } });
    const posted = formData({ name: "x", $ACTION_REF_1: "", "$ACTION_1:0": '{"id":"abc","bound":"$@1"}', $ACTION_KEY: "k1" });
    expect(await strict(IDLE, posted)).toEqual({ status: "success" });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("answers a SafeError with its message, and a FieldError as that field's error", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const refused = authedAction({ name: "test.safe", schema: z.object({}) }, async () => {
      throw new SafeError("Only owners and admins can manage the team.", "forbidden");
    });
    expect(await call(refused)).toEqual({ status: "error", message: "Only owners and admins can manage the team." });
    const fieldRefused = authedAction({ name: "test.field", schema: z.object({}) }, async () => {
      throw new FieldError("email", "An account with this email already exists.");
    });
    expect(await call(fieldRefused)).toEqual({ status: "error", fieldErrors: { email: "An account with this email already exists." } });
  });

  it("answers any other error with a generic message and a reference, and logs it once with the request id", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    let requestId = "";
    const action = authedAction({ name: "test.boom", schema: z.object({}) }, async (_input, context) => {
      requestId = context.requestId;
      throw new TypeError("connection to 10.0.0.5 refused for user app_rw");
    });
    const restoreLevel = withLogLevel("error");
    const { result, output, lines } = await captureOutput(() => call(action));
    restoreLevel();

    expect(result).toEqual({ status: "error", message: `${GENERIC_ERROR_MESSAGE} (reference ${requestId.slice(0, 8)})` });
    expect(JSON.stringify(result)).not.toContain("10.0.0.5");
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        level: "error",
        event: "action.failed",
        action: "test.boom",
        requestId,
        err: expect.objectContaining({ type: "TypeError", message: "connection to 10.0.0.5 refused for user app_rw" }),
        msg: "server action failed",
      }),
    ]);
    // Name and message only: no stack trace (it would name this file).
    expect(output).not.toContain("pipeline.db.test");
  });

  it("lets redirect() and notFound() through to Next", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const redirecting = authedAction({ name: "test.redirect", schema: z.object({}) }, async () => redirect("/team?joined=1"));
    expect(await redirectOf(call(redirecting))).toBe("/team?joined=1");
    const missing = authedAction({ name: "test.not-found", schema: z.object({}) }, async () => notFound());
    const error = await call(missing).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isHTTPAccessFallbackError(error)).toBe(true);
  });
});

describe("publicAction", () => {
  it("runs signed out, with a request id and the client's address but no actor", async () => {
    signedOut({ path: "/sign-up" });
    let context: Record<string, unknown> = {};
    const action = publicAction({ name: "test.public", schema }, async (_input, given) => {
      context = { ...given };
      return { message: "ok" };
    });
    expect(await call(action, { name: "Ada", count: "1" })).toEqual({ status: "success", message: "ok" });
    expect(Object.keys(context).sort()).toEqual(["ip", "requestId"]);
  });
});
