import type { EmsEvent, EmsHeader, Webhook, WebhookGroup } from "@/lib/ems";
import {
  eventScope,
  isEnded,
  isLive,
  isPlainHttp,
  labelOf,
  mayBeEnabled,
  parseTriggerKey,
  possibleTriggers,
  sendsAction,
  TRIGGER_ACTIONS,
  urlParts,
  utcDay,
  type EventScope,
  type SetupData,
  type TriggerAction,
  type TriggerKey,
} from "@/lib/setup/setup-data";
import { SEVERITY_ORDER, type Finding, type FindingSubject, type HealthRule, type RuleContext, type RuleId } from "./types";
import { CHECKS } from "@/lib/setup/checks";

/**
 * The health checks of an account's webhook setup, one rule each. Pure: the caller passes the data
 * and the clock. Every rule follows the contract's reading of missing fields (lib/setup/setup-data.ts):
 * an unknown is never reported as a fault, and a finding never claims what the data does not say.
 *
 * Header values are secrets. They are compared in memory and never copied into a finding: not
 * into its message, key or subjects, not even as a hash.
 */

export type { Finding, FindingSubject, HealthRule, RuleContext, RuleId, Severity } from "./types";

// ---- the account, read once per run ----------------------------------------------------------------

type HookInfo = {
  hook: Webhook;
  group: WebhookGroup;
  scope: EventScope;
  mayBeEnabled: boolean;
};

/** What several rules need, built in one pass so that a run over 20,000 webhooks stays cheap. */
type Analysis = {
  data: SetupData;
  hooks: HookInfo[];
  eventsById: Map<number, EmsEvent>;
  /** position in `data.events`: findings name events in the listing's order */
  eventOrder: Map<number, number>;
  /** live events in the order of `data.events` */
  liveEvents: EmsEvent[];
  liveIds: Set<number>;
  endedIds: Set<number>;
  /** webhooks that may be enabled and list the event, by event id */
  enabledListing: Map<number, HookInfo[]>;
  /** catch-all webhooks that may be enabled */
  enabledAnyEvent: HookInfo[];
  /** webhooks that may be enabled whose events are unknown: they may cover any event */
  enabledUnknownScope: HookInfo[];
};

function analyze(data: SetupData, now: Date): Analysis {
  const today = utcDay(now);
  const eventsById = new Map<number, EmsEvent>();
  const eventOrder = new Map<number, number>();
  const liveEvents: EmsEvent[] = [];
  const endedIds = new Set<number>();
  for (const [index, event] of data.events.entries()) {
    eventsById.set(event.id, event);
    eventOrder.set(event.id, index);
    if (isLive(event, today)) liveEvents.push(event);
    else if (isEnded(event, today)) endedIds.add(event.id);
  }
  const hooks: HookInfo[] = [];
  const enabledListing = new Map<number, HookInfo[]>();
  const enabledAnyEvent: HookInfo[] = [];
  const enabledUnknownScope: HookInfo[] = [];
  for (const group of data.groups) {
    for (const hook of group.webhooks ?? []) {
      const info: HookInfo = { hook, group, scope: eventScope(hook), mayBeEnabled: mayBeEnabled(hook) };
      hooks.push(info);
      if (!info.mayBeEnabled) continue;
      if (info.scope.kind === "all") enabledAnyEvent.push(info);
      else if (info.scope.kind === "unknown") enabledUnknownScope.push(info);
      else for (const eventId of info.scope.eventIds) appendOnce(enabledListing, eventId, info);
    }
  }
  return {
    data,
    hooks,
    eventsById,
    eventOrder,
    liveEvents,
    liveIds: new Set(liveEvents.map((event) => event.id)),
    endedIds,
    enabledListing,
    enabledAnyEvent,
    enabledUnknownScope,
  };
}

function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** appendTo, skipping a value just appended under the same key (an id repeated in one `event_ids`). */
function appendOnce<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

/** Events by id, each once, in the order of `data.events`. */
function inListingOrder(ids: Iterable<number>, analysis: Analysis): EmsEvent[] {
  return [...new Set(ids)].sort((a, b) => analysis.eventOrder.get(a)! - analysis.eventOrder.get(b)!).map((id) => analysis.eventsById.get(id)!);
}

/** The live events a webhook is set up for (every live event for a catch-all webhook). */
function liveEventsOf(scope: EventScope, analysis: Analysis): EmsEvent[] {
  if (scope.kind === "all") return analysis.liveEvents;
  if (scope.kind === "unknown") return [];
  return inListingOrder(
    scope.eventIds.filter((id) => analysis.liveIds.has(id)),
    analysis,
  );
}

// ---- wording ----------------------------------------------------------------------------------------

const quote = (text: string) => `“${text}”`;

/** "“A”", "“A” and “B”", "“A”, “B” and “C”", "“A”, “B”, “C” and 4 more": the first names of `total`. */
function namesPhrase(first: readonly string[], total: number): string {
  const quoted = first.map(quote);
  const rest = total - quoted.length;
  if (rest > 0) return `${quoted.join(", ")} and ${rest} more`;
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

const listNames = (names: readonly string[], shown = 3) => namesPhrase(names.slice(0, shown), names.length);

/** listNames of records' labels, labelling only the ones shown: a catch-all webhook has every live event. */
const listLabels = (records: readonly { id: number; name?: string }[], shown = 3) => namesPhrase(records.slice(0, shown).map(labelOf), records.length);

function listPlain(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

const webhookPhrase = (info: HookInfo) => `Webhook ${quote(labelOf(info.hook))} in ${quote(labelOf(info.group))}`;

const ACTION_NOUNS: Record<TriggerAction, string> = { insert: "inserts", update: "updates", delete: "deletions" };

/** "registrant inserts and updates" */
function changesPhrase(object: string, actions: readonly TriggerAction[]): string {
  return `${object} ${listPlain(actions.map((action) => ACTION_NOUNS[action]))}`;
}

// ---- subjects ---------------------------------------------------------------------------------------

/** At most this many events are named in a finding's subjects: a catch-all webhook covers thousands. */
const MAX_EVENT_SUBJECTS = 5;

const groupSubject = (group: WebhookGroup): FindingSubject => ({ kind: "group", id: group.id, name: group.name });
const webhookSubject = (hook: Webhook, group: WebhookGroup): FindingSubject => ({ kind: "webhook", id: hook.id, name: hook.name, groupId: group.id });
const subjectOfHook = (info: HookInfo) => webhookSubject(info.hook, info.group);
const eventSubject = (event: EmsEvent): FindingSubject => ({ kind: "event", id: event.id, name: event.name });
const eventSubjects = (events: readonly EmsEvent[]) => events.slice(0, MAX_EVENT_SUBJECTS).map(eventSubject);

// ---- rules ------------------------------------------------------------------------------------------

type RuleDefinition = Omit<HealthRule, "check"> & {
  /** the rule over the shared analysis; `check` wraps it for a rule run on its own */
  evaluate(analysis: Analysis, context: RuleContext): Omit<Finding, "ruleId" | "severity">[];
};

const groupWithoutEmails = {
  id: "group-without-notification-emails",
  severity: "warning",
  title: CHECKS["group-without-notification-emails"].title,
  why: "When a webhook of the group fails, the service notifies the group's notification emails; with none, failed deliveries for a running event go unnoticed.",
  fix: "Open the webhook group in the EMS web app and add at least one monitored address (a team mailbox rather than a person) under notification emails.",
  evaluate(analysis) {
    const findings = [];
    for (const group of analysis.data.groups) {
      // Missing `notification_emails` is unknown, not empty.
      if (!group.notification_emails || group.notification_emails.some((email) => email.trim() !== "")) continue;
      const live = new Map<number, EmsEvent>();
      let knownEnabled = false;
      for (const hook of group.webhooks ?? []) {
        if (!mayBeEnabled(hook)) continue;
        const events = liveEventsOf(eventScope(hook), analysis);
        if (events.length && hook.enabled === true) knownEnabled = true;
        for (const event of events) live.set(event.id, event);
      }
      if (live.size === 0) continue;
      const events = inListingOrder(live.keys(), analysis);
      const verb = knownEnabled ? "fire" : "may fire";
      findings.push({
        key: String(group.id),
        message: `Group ${quote(labelOf(group))} has no notification emails, yet its webhooks ${verb} for live event${events.length > 1 ? "s" : ""} ${listLabels(events)}.`,
        subjects: [groupSubject(group), ...eventSubjects(events)],
      });
    }
    return findings;
  },
} satisfies RuleDefinition;

const plainHttpUrl = {
  id: "plain-http-url",
  severity: "error",
  title: CHECKS["plain-http-url"].title,
  why: "Deliveries to a plain-HTTP address travel unencrypted: registrant data and the webhook's headers, credentials included, can be read or altered on the way.",
  fix: "Change the webhook's URL to the https:// address of the receiving system (ask its owner for one if it has none), then send a test delivery.",
  evaluate(analysis) {
    return analysis.hooks
      .filter((info) => isPlainHttp(info.hook.url) === true)
      .map((info) => {
        const parts = urlParts(info.hook.url);
        // Only scheme, host and path are shown: credentials and query strings may hold secrets.
        const target = parts ? parts.display : "an address without https://";
        const state = info.hook.enabled === false ? " (disabled)" : "";
        return {
          key: String(info.hook.id),
          message: `${webhookPhrase(info)}${state} posts to ${target}.`,
          subjects: [subjectOfHook(info), groupSubject(info.group)],
        };
      });
  },
} satisfies RuleDefinition;

const disabledForLiveEvent = {
  id: "disabled-webhook-live-event",
  severity: "warning",
  title: CHECKS["disabled-webhook-live-event"].title,
  why: "A disabled webhook sends nothing: changes made during a running event do not reach the system it feeds, and they are not replayed when it is enabled again.",
  fix: "Enable the webhook if the receiving system should get this event's changes; if it was retired on purpose, remove the live events from it (or delete it) so it no longer looks like coverage.",
  evaluate(analysis) {
    const findings = [];
    for (const info of analysis.hooks) {
      if (info.hook.enabled !== false) continue;
      const events = liveEventsOf(info.scope, analysis);
      if (events.length === 0) continue;
      const which =
        info.scope.kind === "all" ? `every event, live ones included (${listLabels(events)})` : `live event${events.length > 1 ? "s" : ""} ${listLabels(events)}`;
      findings.push({
        key: String(info.hook.id),
        message: `${webhookPhrase(info)} is disabled, but it is set up for ${which}.`,
        subjects: [subjectOfHook(info), groupSubject(info.group), ...eventSubjects(events)],
      });
    }
    return findings;
  },
} satisfies RuleDefinition;

/** The URL compared for duplicates: trimmed, scheme and host lower-cased, fragment dropped. */
function urlIdentity(url: string): string {
  let trimmed = url.trim();
  const fragment = trimmed.indexOf("#");
  if (fragment >= 0) trimmed = trimmed.slice(0, fragment);
  const schemeEnd = trimmed.indexOf("://");
  if (schemeEnd < 0) return trimmed;
  const pathStart = trimmed.slice(schemeEnd + 3).search(/[/?]/);
  const authorityEnd = pathStart < 0 ? trimmed.length : schemeEnd + 3 + pathStart;
  return trimmed.slice(0, authorityEnd).toLowerCase() + trimmed.slice(authorityEnd);
}

const duplicateUrl = {
  id: "duplicate-url-trigger",
  severity: "warning",
  title: CHECKS["duplicate-url-trigger"].title,
  why: "Two webhooks in different groups that send the same change to the same address deliver it twice whenever both fire for an event: the receiving system creates duplicates or processes the change twice.",
  fix: "Keep the webhook in one group and delete (or disable) the copy in the other; if each group serves different events, make sure no event is listed in both.",
  evaluate(analysis) {
    const byUrlAndObject = new Map<string, HookInfo[]>();
    for (const info of analysis.hooks) {
      const { url, trigger_object: object } = info.hook;
      if (!info.mayBeEnabled || !url || !object) continue;
      appendTo(byUrlAndObject, `${object}\u0000${urlIdentity(url)}`, info);
    }
    const findings = [];
    for (const hooks of byUrlAndObject.values()) {
      if (hooks.length < 2) continue;
      // Actions that at least two groups send (a switch known to be on: an unknown one claims nothing).
      const actions = TRIGGER_ACTIONS.filter((action) => new Set(hooks.filter((info) => sendsAction(info.hook, action) === true).map((info) => info.group.id)).size >= 2);
      if (actions.length === 0) continue;
      const involved = hooks.filter((info) => actions.some((action) => sendsAction(info.hook, action) === true));
      const groups = [...new Map(involved.map((info) => [info.group.id, info.group])).values()];
      const object = involved[0].hook.trigger_object!;
      const target = urlParts(involved[0].hook.url)?.display ?? "the same address";
      findings.push({
        key: `${object}:${involved
          .map((info) => info.hook.id)
          .sort((a, b) => a - b)
          .join(",")}`,
        message: `Webhooks in ${listLabels(groups, groups.length)} ${groups.length === 2 ? "both" : "all"} send ${changesPhrase(object, actions)} to ${target}.`,
        subjects: [...involved.map(subjectOfHook), ...groups.map(groupSubject)],
      });
    }
    return findings;
  },
} satisfies RuleDefinition;

const insertWithoutDelete = {
  id: "insert-without-delete",
  severity: "warning",
  title: CHECKS["insert-without-delete"].title,
  why: "The group tells the receiving system when a record is created but never when it is deleted, so records removed in EMS (a cancelled registration, a dropped session) stay in that system for good.",
  fix: "Turn on “on delete” for the object in one of the group's webhooks (or add a webhook for the deletions), and have the receiving system remove the record.",
  evaluate(analysis) {
    const findings = [];
    for (const group of analysis.data.groups) {
      const inserters = new Map<string, Webhook[]>();
      const mayDelete = new Set<string>();
      for (const hook of group.webhooks ?? []) {
        const object = hook.trigger_object;
        if (!object || !mayBeEnabled(hook)) continue;
        if (sendsAction(hook, "insert") === true) appendTo(inserters, object, hook);
        // A missing delete switch may be on: no finding.
        if (sendsAction(hook, "delete") !== false) mayDelete.add(object);
      }
      for (const [object, hooks] of inserters) {
        if (mayDelete.has(object)) continue;
        const names = hooks.map((hook) => labelOf(hook));
        findings.push({
          key: `${group.id}:${object}`,
          message: `Group ${quote(labelOf(group))} sends ${object} inserts (webhook${hooks.length > 1 ? "s" : ""} ${listNames(names)}) but no ${object} deletions.`,
          subjects: [groupSubject(group), ...hooks.map((hook) => webhookSubject(hook, group))],
        });
      }
    }
    return findings;
  },
} satisfies RuleDefinition;

const endedEventsOnly = {
  id: "webhook-ended-events-only",
  severity: "notice",
  title: CHECKS["webhook-ended-events-only"].title,
  why: "Every event the webhook lists is closed, cancelled or over, so it will never fire again; it clutters the setup and is easy to mistake for live coverage.",
  fix: "Add the upcoming events it should serve to the webhook, or disable or delete it if its work is done.",
  evaluate(analysis) {
    const findings = [];
    for (const info of analysis.hooks) {
      if (!info.mayBeEnabled || info.scope.kind !== "listed" || info.scope.eventIds.length === 0) continue;
      // An event missing from the listing is unknown: it may be upcoming.
      if (!info.scope.eventIds.every((id) => analysis.endedIds.has(id))) continue;
      const events = inListingOrder(info.scope.eventIds, analysis);
      findings.push({
        key: String(info.hook.id),
        message: `${webhookPhrase(info)} only fires for ended event${events.length > 1 ? "s" : ""} ${listLabels(events)}.`,
        subjects: [subjectOfHook(info), groupSubject(info.group), ...eventSubjects(events)],
      });
    }
    return findings;
  },
} satisfies RuleDefinition;

/** Header names that say they carry a credential. */
const CREDENTIAL_HEADER = /authorization|key|token|secret/i;

type SharedValue = { names: Map<string, string>; groups: Map<number, WebhookGroup>; webhooks: HookInfo[] };

/** Marks a credential value seen in more than one group (group ids are positive). */
const SHARED = -1;

/** The header's trimmed value when its name says credential and it has a value; else null. */
function credentialValue(header: EmsHeader): string | null {
  const value = header.value?.trim();
  return value && CREDENTIAL_HEADER.test(header.key) ? value : null;
}

const sharedCredential = {
  id: "shared-credential-header",
  severity: "warning",
  title: CHECKS["shared-credential-header"].title,
  why: "One secret spread over several groups is harder to rotate and, once leaked, opens every system behind it; the receiving side also cannot tell the groups apart.",
  fix: "Issue a separate credential per group (or per receiving system) in the receiving system, set each in its own group, and revoke the shared one.",
  evaluate(analysis) {
    // Keyed by the header value, in memory only: the value itself never leaves this function.
    // First pass: the first group of each value, or SHARED once a second group has it (most values
    // are unique, so no bookkeeping is made for them).
    const firstGroup = new Map<string, number>();
    const visitCredentials = (visit: (value: string, header: EmsHeader, group: WebhookGroup, info?: HookInfo) => void) => {
      for (const group of analysis.data.groups) {
        for (const header of group.headers ?? []) {
          const value = credentialValue(header);
          if (value) visit(value, header, group);
        }
      }
      for (const info of analysis.hooks) {
        for (const header of info.hook.headers ?? []) {
          const value = credentialValue(header);
          if (value) visit(value, header, info.group, info);
        }
      }
    };
    visitCredentials((value, _header, group) => {
      const first = firstGroup.get(value);
      if (first === undefined) firstGroup.set(value, group.id);
      else if (first !== group.id) firstGroup.set(value, SHARED);
    });
    // Second pass, over shared values only: the header names, groups and webhooks to name.
    const byValue = new Map<string, SharedValue>();
    visitCredentials((value, header, group, info) => {
      if (firstGroup.get(value) !== SHARED) return;
      let shared = byValue.get(value);
      if (!shared) byValue.set(value, (shared = { names: new Map(), groups: new Map(), webhooks: [] }));
      // The first spelling seen is the one shown.
      const name = header.key.trim();
      if (!shared.names.has(name.toLowerCase())) shared.names.set(name.toLowerCase(), name);
      shared.groups.set(group.id, group);
      if (info && !shared.webhooks.includes(info)) shared.webhooks.push(info);
    });

    const findings = new Map<string, Omit<Finding, "ruleId" | "severity">>();
    for (const shared of byValue.values()) {
      if (shared.groups.size < 2) continue;
      const names = [...shared.names.keys()].sort();
      const groups = [...shared.groups.values()].sort((a, b) => a.id - b.id);
      // Names and group ids only: two different shared values with the same names and groups make one finding.
      const key = `${names.join(",")}@${groups.map((group) => group.id).join(",")}`;
      if (findings.has(key)) continue;
      const shownNames = names.map((name) => shared.names.get(name)!);
      const headerWords = shownNames.length > 1 ? `Headers ${listNames(shownNames, shownNames.length)} carry` : `Header ${quote(shownNames[0])} has`;
      findings.set(key, {
        key,
        message: `${headerWords} the same value in ${groups.length} groups: ${listLabels(groups, 5)}.`,
        subjects: [...groups.map(groupSubject), ...shared.webhooks.map(subjectOfHook)],
      });
    }
    return [...findings.values()];
  },
} satisfies RuleDefinition;

/**
 * The trigger keys that may reach a live event: those of the enabled webhooks that fire for it;
 * null stands for "any": a webhook with an unknown trigger object may be any of them.
 */
function triggersReaching(hooks: readonly HookInfo[]): Set<TriggerKey> | null {
  const keys = new Set<TriggerKey>();
  for (const info of hooks) {
    if (!info.hook.trigger_object) return null;
    for (const key of possibleTriggers(info.hook)) keys.add(key);
  }
  return keys;
}

const requiredTriggerMissing = {
  id: "required-trigger-missing",
  severity: "error",
  title: CHECKS["required-trigger-missing"].title,
  why: "Your team requires these changes to reach your systems for every live event; for this event nothing sends them, so the receiving systems silently fall behind.",
  fix: "Add the event to a group's enabled webhook for each missing trigger (or create one), or switch on the missing action in a webhook that already serves the event.",
  evaluate(analysis, context) {
    const required = [...new Set(context.requiredTriggers)].filter((key) => parseTriggerKey(key) !== null);
    if (required.length === 0 || analysis.liveEvents.length === 0) return [];
    // Webhooks whose events are unknown may cover any event: their triggers are never reported missing.
    const everywhere = triggersReaching([...analysis.enabledAnyEvent, ...analysis.enabledUnknownScope]);
    if (everywhere === null) return [];
    const findings = [];
    for (const event of analysis.liveEvents) {
      const reaching = triggersReaching(analysis.enabledListing.get(event.id) ?? []);
      if (reaching === null) continue;
      const missing = required.filter((key) => !everywhere.has(key) && !reaching.has(key));
      if (missing.length === 0) continue;
      findings.push({
        key: `${event.id}:${missing.join(",")}`,
        message: `Live event ${quote(labelOf(event))} has no enabled webhook for ${listPlain(missing)}.`,
        subjects: [eventSubject(event)],
      });
    }
    return findings;
  },
} satisfies RuleDefinition;

const liveEventUncovered = {
  id: "live-event-uncovered",
  severity: "warning",
  title: CHECKS["live-event-uncovered"].title,
  why: "No enabled webhook fires for this running event, so none of its registrations, sessions or other changes reach your systems.",
  fix: "Add the event to the enabled webhooks that should serve it (the groups your other live events use), or confirm that this event needs no integration and mute this finding.",
  evaluate(analysis) {
    // A catch-all webhook, or one whose events are unknown, may cover every event: claim nothing.
    if (analysis.enabledAnyEvent.length > 0 || analysis.enabledUnknownScope.length > 0) return [];
    return analysis.liveEvents
      .filter((event) => !analysis.enabledListing.has(event.id))
      .map((event) => ({
        key: String(event.id),
        message: `Live event ${quote(labelOf(event))} has no enabled webhook: none of its changes reach your systems.`,
        subjects: [eventSubject(event)],
      }));
  },
} satisfies RuleDefinition;

const DEFINITIONS = [
  plainHttpUrl,
  requiredTriggerMissing,
  liveEventUncovered,
  disabledForLiveEvent,
  groupWithoutEmails,
  duplicateUrl,
  insertWithoutDelete,
  sharedCredential,
  endedEventsOnly,
] as const satisfies readonly RuleDefinition[];
// One definition for every id of RULE_IDS: an id without its check fails the build here.
type MissingCheck = Exclude<RuleId, (typeof DEFINITIONS)[number]["id"]>;
const everyIdChecked: [MissingCheck] extends [never] ? true : MissingCheck = true;
void everyIdChecked;

function findingsOf(definition: RuleDefinition, analysis: Analysis, context: RuleContext): Finding[] {
  return definition.evaluate(analysis, context).map((finding) => ({ ruleId: definition.id, severity: definition.severity, ...finding }));
}

function toRule(definition: RuleDefinition): HealthRule {
  const { id, severity, title, why, fix } = definition;
  return { id, severity, title, why, fix, check: (data, context) => findingsOf(definition, analyze(data, context.now), context) };
}

/** Every health rule, errors first. */
export const HEALTH_RULES: readonly HealthRule[] = DEFINITIONS.map(toRule);

const RULES_BY_ID = new Map<string, HealthRule>(HEALTH_RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): HealthRule | undefined {
  return RULES_BY_ID.get(id);
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Natural order of keys ("9" before "12", "10:session" before "101:contact"): runs of digits compare
 * as numbers, the rest by code unit. Hand-written because a run can sort 20,000 findings and
 * Intl.Collator's numeric compare costs several times more.
 */
function compareKeys(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (isDigit(x) && isDigit(y)) {
      let endA = i;
      let endB = j;
      while (endA < a.length && isDigit(a.charCodeAt(endA))) endA++;
      while (endB < b.length && isDigit(b.charCodeAt(endB))) endB++;
      // Leading zeros aside, a longer run is a larger number.
      const runA = a.slice(i, endA).replace(/^0+(?=\d)/, "");
      const runB = b.slice(j, endB).replace(/^0+(?=\d)/, "");
      if (runA.length !== runB.length) return runA.length - runB.length;
      if (runA !== runB) return runA < runB ? -1 : 1;
      i = endA;
      j = endB;
      continue;
    }
    if (x !== y) return x - y;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}

/** Every rule over the account, the data read once; sorted by severity, then rule, then key. */
export function runHealthChecks(data: SetupData, context: RuleContext): Finding[] {
  const analysis = analyze(data, context.now);
  // A rule's findings share its severity: rules in severity order, each rule's findings by key, is
  // the whole order, without comparing 20,000 findings with each other.
  return BY_SEVERITY.flatMap((definition) => findingsOf(definition, analysis, context).sort((a, b) => compareKeys(a.key, b.key)));
}

/** The rules by severity, in their listed order within one (sort is stable). */
const BY_SEVERITY = [...DEFINITIONS].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
