// GET /api/health/group-findings?ids= (app/api/health/group-findings/route.ts), the groups list's
// findings column, called as a crafted request would call it: signed out, with bad ids, from another
// team, and as intended, against the sandbox EMS over real HTTP and a real database.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { GET } from "@/app/api/health/group-findings/route";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { flushEmsState } from "@/lib/ems";
import { muteFinding } from "@/lib/health/mutes";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "../ems/support/sandbox";
import { errorOf, routeRequest } from "../actions/support/route-request";
import { signInAs, signedOut } from "../actions/support/request";
import { listAll, tokenFor } from "../sandbox/helpers";
import { addMember, createTeam } from "../teams/fixtures";

type Counts = Record<string, { errors: number; warnings: number; notices: number }>;

/**
 * Two accounts of one seed and size hold the same generated data; `edited` then gets one webhook
 * moved to plain http, so its counts are the base's plus exactly that error, on that webhook's group.
 * A third account, of another seed, is another team's.
 */
const BASE = { key: "gf_base", secret: "gf-secret-base", groups: 12, events: 6, seed: 71 };
const EDITED = { key: "gf_edited", secret: "gf-secret-edited", groups: 12, events: 6, seed: 71 };
const ELSEWHERE = { key: "gf_elsewhere", secret: "gf-secret-elsewhere", groups: 12, events: 6, seed: 72 };
const credentialOf = (account: { key: string; secret: string }) => ({ consumerKey: account.key, consumerSecret: account.secret });

let sandbox: StartedSandbox;
let groupIds: number[];
let httpHook: { id: number; groupId: number };
beforeAll(async () => {
  sandbox = await startAllowedSandbox({ accounts: [BASE, EDITED, ELSEWHERE] });
  const token = await tokenFor(sandbox.baseUrl, credentialOf(BASE));
  groupIds = (await listAll<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", "fields=id")).map((group) => group.id);
  const hooks = await listAll<{ id: number; group_id: number; url: string; enabled: boolean }>(sandbox.baseUrl, token, "webhooks", "fields=id,group_id,url,enabled");
  const hook = hooks.find((candidate) => candidate.enabled && candidate.url.startsWith("https://"))!;
  httpHook = { id: hook.id, groupId: hook.group_id };
  await sandbox.admin.applyEdits(EDITED.key, [{ kind: "set-url", webhookId: hook.id, url: "http://plain.example.org/hook" }]);
});
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});
beforeEach(() => signedOut({ path: "/api/health/group-findings" }));

const ask = (query: string) => GET(routeRequest(`/api/health/group-findings${query}`));
const countsOf = async (response: Response) => {
  expect(response.status).toBe(200);
  return (await response.json()) as { available: boolean; counts: Counts };
};
async function teamWith(account: { key: string; secret: string }): Promise<Actor> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...credentialOf(account) });
  return owner;
}

describe("GET /api/health/group-findings", () => {
  it("answers 401 JSON to a signed-out caller", async () => {
    const response = await ask(`?ids=${groupIds[0]}`);
    expect(response.status).toBe(401);
    expect(response.headers.get("cache-control")).toContain("no-store");
  });

  it("answers a precise 400 to ids that are missing, empty, not whole numbers, repeated or too many", async () => {
    await signInAs(await teamWith(BASE));
    const refusals: [string, string][] = [
      ["", "Name the groups: ids=1,2,3."],
      ["?ids=", "Name at least one group."],
      ["?ids=,,", "Name at least one group."],
      ["?ids=abc", "Group ids are whole numbers of up to 10 digits."],
      ["?ids=1,-2", "Group ids are whole numbers of up to 10 digits."],
      ["?ids=1.5", "Group ids are whole numbers of up to 10 digits."],
      ["?ids=12345678901", "Group ids are whole numbers of up to 10 digits."],
      ["?ids=1%002", "Group ids are whole numbers of up to 10 digits."],
      ["?ids=1&ids=2", "?ids= is given more than once."],
      [`?ids=${Array.from({ length: 201 }, (_, index) => index + 1).join(",")}`, "At most 200 groups at a time."],
      [`?ids=${"1,".repeat(1_300)}`, "At most 200 groups at a time."],
    ];
    for (const [query, message] of refusals) {
      const response = await ask(query);
      expect(response.status, query.slice(0, 40)).toBe(400);
      expect(await errorOf(response), query.slice(0, 40)).toBe(message);
    }
  });

  it("counts each group's unmuted findings by severity as Health finds them: one more error where a webhook went plain http, none after it is muted", async () => {
    const ids = `?ids=${groupIds.join(",")}`;
    await signInAs(await teamWith(BASE));
    const base = await countsOf(await ask(ids));
    expect(base.available).toBe(true);

    const edited = await teamWith(EDITED);
    await signInAs(edited);
    const withHttp = await countsOf(await ask(ids));
    const zero = { errors: 0, warnings: 0, notices: 0 };
    const group = String(httpHook.groupId);
    expect(withHttp.counts).toEqual({ ...base.counts, [group]: { ...zero, ...base.counts[group], errors: (base.counts[group]?.errors ?? 0) + 1 } });
    // Only the groups asked for.
    expect(Object.keys((await countsOf(await ask(`?ids=${group}`))).counts)).toEqual([group]);

    await muteFinding(edited, { ruleId: "plain-http-url", findingKey: String(httpHook.id), reason: "a test receiver" });
    expect((await countsOf(await ask(ids))).counts).toEqual(base.counts);
  });

  it("never reaches another account: a teammate without credentials of their own gets nothing, another team only its own account's groups", async () => {
    const ids = `?ids=${groupIds.join(",")}`;
    // Counts come with the caller's own credential: a teammate of a team that has one gets none.
    await signInAs(await addMember(await teamWith(BASE), "MEMBER"));
    expect(await countsOf(await ask(ids))).toEqual({ available: false, counts: {} });

    const elsewhere = await teamWith(ELSEWHERE);
    const token = await tokenFor(sandbox.baseUrl, credentialOf(ELSEWHERE));
    const theirGroups = new Set((await listAll<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", "fields=id")).map((group) => String(group.id)));
    await signInAs(elsewhere);
    const answer = await countsOf(await ask(`?ids=${[...new Set([...groupIds.map(String), ...theirGroups])].join(",")}`));
    expect(answer.available).toBe(true);
    // Asked for the other account's group ids too, it counts only groups of its own account (ids of two accounts may coincide).
    expect(Object.keys(answer.counts).length).toBeGreaterThan(0);
    for (const id of Object.keys(answer.counts)) expect(theirGroups.has(id), `group ${id} is not in their account`).toBe(true);
  });
});
