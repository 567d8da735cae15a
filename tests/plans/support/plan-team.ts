import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { flushEmsState, forgetCredential, getEmsClient, getEmsWriter, type EmsClient, type EmsWriter } from "@/lib/ems";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { demoCredential, startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { addMember, createTeam } from "../../teams/fixtures";

/**
 * What a plans test works with: the sandbox over HTTP (one per file, reset before each test) and a
 * fresh team of an owner, an admin and a member, each holding the demo account's credentials.
 * Registers the hooks when called at a file's top level; read the fields inside tests.
 */
export interface PlanTeam {
  sandbox: StartedSandbox;
  owner: Actor;
  admin: Actor;
  member: Actor;
  /** The demo account's client and writer, as the EMS's own users would change it. */
  client(): EmsClient;
  writer(): EmsWriter;
  /** Forgets the cached token and shared answers, so the next read is the sandbox's. */
  forget(): Promise<void>;
}

export function planTeamPerTest(): PlanTeam {
  const credential = () => demoCredential(team.sandbox);
  const team = {
    client: () => getEmsClient(credential()),
    writer: () => getEmsWriter(credential()),
    forget: () => forgetCredential(credential().fingerprint),
  } as PlanTeam;
  beforeAll(async () => {
    team.sandbox = await startAllowedSandbox();
  });
  afterAll(async () => {
    await flushEmsState();
    await team.sandbox?.close();
  });
  beforeEach(async () => {
    await team.sandbox.admin.reset();
    team.owner = await createTeam();
    team.admin = await addMember(team.owner, "ADMIN");
    team.member = await addMember(team.owner, "MEMBER");
    for (const person of [team.owner, team.admin, team.member])
      await saveCredential(person, { baseUrl: team.sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    await team.forget();
  });
  afterEach(() => flushEmsState());
  return team;
}

/**
 * duePlanIds' limit that finds a test's plan among every due plan of the shared database: other
 * files leave plans approved and started (seen: more than ten, which pushed a test's own plan out of
 * the default ten, oldest first), and a `not.toContain` on ten of them would pass for any plan.
 */
export const EVERY_DUE_PLAN = 100_000;
