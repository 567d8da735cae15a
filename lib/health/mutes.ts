import "server-only";
import { createHash } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import { SafeError, NotFoundError } from "@/lib/errors";
import { requireManager, type RequestContext } from "@/lib/access/guards";
import { checksWithPolicy, POLICY_OFF_REASON } from "./policies";
import { ruleById, type Finding } from "./rules";

/**
 * Muted health-check findings: a team's owner or admin hides one finding, or a whole rule, with a
 * reason, stored per team, audited and reversible. A finding is named by its rule and its stable
 * key (lib/health/rules.ts), never by a header value. The team is always the actor's own: no id
 * from a request chooses it.
 */

/** `findingKey` of a mute that covers every finding of its rule. */
export const WHOLE_RULE = "";

/** A team keeps at most this many mutes: a crafted flood of them is refused. */
export const MAX_MUTES_PER_TEAM = 1_000;

/**
 * What a mute stores for a finding: the SHA-256 of its key. Keys grow with what they name (a URL
 * shared by 300 webhooks lists them all), and a fixed-size digest keeps the unique index small.
 */
export function findingDigest(key: string): string {
  return key === WHOLE_RULE ? WHOLE_RULE : createHash("sha256").update(key).digest("hex");
}

export interface HealthMuteRecord {
  id: string;
  ruleId: string;
  /** findingDigest of the finding's key; WHOLE_RULE ("") for the whole rule. */
  findingKey: string;
  reason: string;
  createdByEmail: string | null;
  createdAt: Date;
  /** A check turned off in Settings (lib/health/policies.ts), not a mute: changed there, not unmuted. */
  fromPolicy?: true;
}

/**
 * Every mute of the actor's team (any member may see them: they explain what the page hides), and
 * each check the team turned off, as a mute of the whole check: whatever reads the findings (Health,
 * Coverage's counts, a sync's alerts, a plan's impact) then hides them the same way.
 */
export async function listMutes(actor: Pick<Actor, "teamId">): Promise<HealthMuteRecord[]> {
  const [mutes, off] = await Promise.all([
    prisma.healthMute.findMany({
      where: { teamId: actor.teamId },
      select: { id: true, ruleId: true, findingKey: true, reason: true, createdByEmail: true, createdAt: true },
      orderBy: { createdAt: "desc" },
    }),
    checksWithPolicy(actor.teamId, "off"),
  ]);
  const turnedOff = off.map((check): HealthMuteRecord => ({
    id: `policy-${check.ruleId}`,
    ruleId: check.ruleId,
    findingKey: WHOLE_RULE,
    reason: POLICY_OFF_REASON,
    createdByEmail: check.updatedByEmail,
    createdAt: check.updatedAt,
    fromPolicy: true,
  }));
  // Turned off comes last: applyMutes keeps the last mute of a key, and the policy is what hides it.
  return [...mutes, ...turnedOff];
}

export interface MuteInput {
  ruleId: string;
  findingKey: string;
  reason: string;
}

/** Owners and admins: mutes one finding (or, with WHOLE_RULE, its rule) for the team. */
export async function muteFinding(actor: Actor, input: MuteInput, context: RequestContext = {}): Promise<HealthMuteRecord> {
  if (!ruleById(input.ruleId)) throw new SafeError("There is no such health check.", "unknown_rule");
  return prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const findingKey = findingDigest(input.findingKey);
    const alreadyMuted = () => new SafeError(input.findingKey === WHOLE_RULE ? "That check is already muted." : "That finding is already muted.", "already_muted");
    if ((await tx.healthMute.count({ where: { teamId: actor.teamId } })) >= MAX_MUTES_PER_TEAM) {
      throw new SafeError(`Your team has ${MAX_MUTES_PER_TEAM.toLocaleString("en")} mutes already: unmute some, or mute a whole check instead.`, "too_many_mutes");
    }
    // The unique index decides between two people muting the same finding at once: the second
    // insert fails (P2002) and is told it is already muted, rather than meeting a generic error.
    const mute = await tx.healthMute
      .create({
        data: { teamId: actor.teamId, ruleId: input.ruleId, findingKey, reason: input.reason, createdById: actor.userId, createdByEmail: actor.email },
        select: { id: true, ruleId: true, findingKey: true, reason: true, createdByEmail: true, createdAt: true },
      })
      .catch((error: unknown) => {
        throw (error as { code?: string }).code === "P2002" ? alreadyMuted() : error;
      });
    await auditByActor(
      actor,
      { action: "health.muted", target: mute.id, ip: context.ip ?? null, metadata: { ruleId: input.ruleId, findingKey: input.findingKey || null, reason: input.reason } },
      tx,
    );
    return mute;
  });
}

/** Owners and admins: shows a muted finding (or rule) again. Another team's mute is "not found". */
export async function unmuteFinding(actor: Actor, muteId: string, context: RequestContext = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const mute = await tx.healthMute.findFirst({ where: { id: muteId, teamId: actor.teamId } });
    if (!mute) throw new NotFoundError("That mute no longer exists.");
    await tx.healthMute.delete({ where: { id: mute.id } });
    await auditByActor(
      actor,
      { action: "health.unmuted", target: mute.id, ip: context.ip ?? null, metadata: { ruleId: mute.ruleId, findingKey: mute.findingKey || null } },
      tx,
    );
  });
}

export interface SplitFindings {
  active: Finding[];
  muted: { finding: Finding; mute: HealthMuteRecord }[];
}

/** The findings the page shows, and those a mute hides (with the mute that hides each). */
export function applyMutes(findings: readonly Finding[], mutes: readonly HealthMuteRecord[]): SplitFindings {
  const byKey = new Map(mutes.map((mute) => [`${mute.ruleId}\n${mute.findingKey}`, mute]));
  const split: SplitFindings = { active: [], muted: [] };
  for (const finding of findings) {
    const mute = byKey.get(`${finding.ruleId}\n${WHOLE_RULE}`) ?? (byKey.size > 0 ? byKey.get(`${finding.ruleId}\n${findingDigest(finding.key)}`) : undefined);
    if (mute) split.muted.push({ finding, mute });
    else split.active.push(finding);
  }
  return split;
}
