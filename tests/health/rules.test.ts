import { describe, expect, it } from "vitest";
import type { Webhook, WebhookGroup } from "@/lib/ems";
import { HEALTH_RULES, ruleById, runHealthChecks } from "@/lib/health/rules";
import { urlParts, type SetupData, type TriggerKey } from "@/lib/setup/setup-data";
import { event, group, NOW, setup, standardEvents, webhook } from "./builders";

function check(ruleId: string, data: SetupData, requiredTriggers: readonly TriggerKey[] = []) {
  const rule = ruleById(ruleId);
  if (!rule) throw new Error(`no rule ${ruleId}`);
  return rule.check(data, { now: NOW, requiredTriggers });
}

/** One group, emails set, one HTTPS webhook on live event 1 sending every registrant change. */
function healthyGroup(overrides: Partial<WebhookGroup> = {}, hook: Partial<Webhook> = {}): WebhookGroup {
  return group({ id: 10, name: "CRM", webhooks: [webhook({ id: 100, name: "CRM sync", ...hook })], ...overrides });
}

describe("the rule set", () => {
  it("has unique ids, the three severities and words for every rule", () => {
    expect(new Set(HEALTH_RULES.map((rule) => rule.id)).size).toBe(HEALTH_RULES.length);
    expect(HEALTH_RULES.length).toBeGreaterThanOrEqual(9);
    for (const rule of HEALTH_RULES) {
      expect(["error", "warning", "notice"]).toContain(rule.severity);
      expect(rule.title.length).toBeGreaterThan(5);
      expect(rule.why).toMatch(/\.$/);
      expect(rule.fix).toMatch(/\.$/);
      expect(ruleById(rule.id)).toBe(rule);
    }
    expect(ruleById("no-such-rule")).toBeUndefined();
  });

  it("finds nothing in a healthy setup", () => {
    expect(runHealthChecks(setup([healthyGroup()]), { now: NOW, requiredTriggers: ["registrant:insert"] })).toEqual([]);
  });

  it("sorts by severity, then rule, then key (numerically)", () => {
    const data = setup([
      group({ id: 10, name: "A", notification_emails: [], webhooks: [webhook({ id: 12, url: "http://a.example/x" }), webhook({ id: 9, url: "http://a.example/y" })] }),
    ]);
    const findings = runHealthChecks(data, { now: NOW, requiredTriggers: [] });
    expect(findings.map((finding) => [finding.severity, finding.ruleId, finding.key])).toEqual([
      ["error", "plain-http-url", "9"],
      ["error", "plain-http-url", "12"],
      ["warning", "group-without-notification-emails", "10"],
    ]);
  });

  it("works with no data at all", () => {
    expect(runHealthChecks({ groups: [], events: [] }, { now: NOW, requiredTriggers: ["registrant:insert"] })).toEqual([]);
  });
});

describe("group-without-notification-emails", () => {
  it("fires for a group with an enabled webhook on a live event and no emails", () => {
    const findings = check("group-without-notification-emails", setup([healthyGroup({ notification_emails: [] })]));
    expect(findings).toEqual([
      {
        ruleId: "group-without-notification-emails",
        severity: "warning",
        key: "10",
        message: "Group “CRM” has no notification emails, yet its webhooks fire for live event “Summit”.",
        subjects: [
          { kind: "group", id: 10, name: "CRM" },
          { kind: "event", id: 1, name: "Summit" },
        ],
      },
    ]);
  });

  it("counts a catch-all webhook as serving every live event", () => {
    const findings = check("group-without-notification-emails", setup([healthyGroup({ notification_emails: [" "] }, { any_event: true, event_ids: [] })]));
    expect(findings).toHaveLength(1);
  });

  it("stays quiet with emails, with only disabled webhooks, or with only ended or upcoming events", () => {
    expect(check("group-without-notification-emails", setup([healthyGroup()]))).toEqual([]);
    expect(check("group-without-notification-emails", setup([healthyGroup({ notification_emails: [] }, { enabled: false })]))).toEqual([]);
    // 2 is a draft, 3 closed, 5 live by status but past its end date.
    expect(check("group-without-notification-emails", setup([healthyGroup({ notification_emails: [] }, { event_ids: [2, 3, 5] })]))).toEqual([]);
  });

  it("does not treat missing emails as none, and says 'may' for a webhook of unknown state", () => {
    expect(check("group-without-notification-emails", setup([healthyGroup({ notification_emails: undefined })]))).toEqual([]);
    const [finding] = check("group-without-notification-emails", setup([healthyGroup({ notification_emails: [] }, { enabled: undefined })]));
    expect(finding.message).toContain("may fire for live event");
  });
});

describe("plain-http-url", () => {
  it("reads the host after the authority's last @ and before a backslash, and shows no path (it may hold a token)", () => {
    expect(urlParts("https://user:p@ss@hooks.example.com/x")).toEqual({ scheme: "https", host: "hooks.example.com", display: "https://hooks.example.com" });
    expect(urlParts("https://h.example\\u:pw@x.example/")?.host).toBe("h.example");
    expect(urlParts("https://hooks.slack.example/services/T000/B000/SECRETTOKEN")?.display).toBe("https://hooks.slack.example");
    expect(urlParts("https://@/x")).toBeNull();
  });

  it("fires for an http:// URL, showing no credentials or query", () => {
    const findings = check(
      "plain-http-url",
      setup([group({ id: 7, name: "Finance ledger", webhooks: [webhook({ id: 70, name: "CRM sync", url: "http://user:pw@Hooks.Example.com:8080/a?token=abc#x" })] })]),
    );
    expect(findings).toEqual([
      {
        ruleId: "plain-http-url",
        severity: "error",
        key: "70",
        message: "Webhook “CRM sync” in “Finance ledger” posts to http://hooks.example.com:8080.",
        subjects: [
          { kind: "webhook", id: 70, name: "CRM sync", groupId: 7 },
          { kind: "group", id: 7, name: "Finance ledger" },
        ],
      },
    ]);
    expect(JSON.stringify(findings)).not.toMatch(/pw|token=abc/);
  });

  it("fires for a URL without a scheme, and marks a disabled webhook", () => {
    const findings = check(
      "plain-http-url",
      setup([group({ webhooks: [webhook({ id: 71, url: "hooks.example.com/b" }), webhook({ id: 72, url: "http://x.example/", enabled: false })] })]),
    );
    expect(findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining("posts to an address without https://."),
      expect.stringContaining("(disabled) posts to http://x.example."),
    ]);
  });

  it("stays quiet for HTTPS (any case) and for a missing URL", () => {
    expect(check("plain-http-url", setup([group({ webhooks: [webhook({ url: "HTTPS://hooks.example.com/a" }), webhook({ url: undefined })] })]))).toEqual([]);
  });
});

describe("disabled-webhook-live-event", () => {
  it("fires for a disabled webhook listing a live event", () => {
    const findings = check("disabled-webhook-live-event", setup([healthyGroup({}, { enabled: false, event_ids: [1, 2] })]));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ key: "100", message: "Webhook “CRM sync” in “CRM” is disabled, but it is set up for live event “Summit”." });
  });

  it("fires for a disabled catch-all webhook when the account has a live event", () => {
    const [finding] = check("disabled-webhook-live-event", setup([healthyGroup({}, { enabled: false, any_event: true, event_ids: [] })]));
    expect(finding.message).toContain("set up for every event, live ones included (“Summit”)");
    const noLiveEvent = standardEvents().filter((candidate) => candidate.id !== 1);
    expect(check("disabled-webhook-live-event", setup([healthyGroup({}, { enabled: false, any_event: true, event_ids: [] })], noLiveEvent))).toEqual([]);
  });

  it("stays quiet for an enabled webhook, one of unknown state, or one on ended events only", () => {
    expect(check("disabled-webhook-live-event", setup([healthyGroup()]))).toEqual([]);
    expect(check("disabled-webhook-live-event", setup([healthyGroup({}, { enabled: undefined })]))).toEqual([]);
    expect(check("disabled-webhook-live-event", setup([healthyGroup({}, { enabled: false, event_ids: [3, 4, 5] })]))).toEqual([]);
  });
});

describe("duplicate-url-trigger", () => {
  const url = "https://hooks.example.com/ems/registrant/abc";

  it("fires for the same URL and an action both send, in two groups", () => {
    const data = setup([
      group({ id: 1, name: "A", webhooks: [webhook({ id: 11, url, trigger_on_update: false })] }),
      group({
        id: 2,
        name: "B",
        webhooks: [webhook({ id: 21, url: " HTTPS://HOOKS.example.com/ems/registrant/abc", trigger_on_insert: true, trigger_on_update: true, trigger_on_delete: false })],
      }),
    ]);
    expect(check("duplicate-url-trigger", data)).toEqual([
      {
        ruleId: "duplicate-url-trigger",
        severity: "warning",
        key: "registrant:11,21",
        message: "Webhooks in “A” and “B” both send registrant inserts to https://hooks.example.com.",
        subjects: [
          { kind: "webhook", id: 11, name: "Hook 11", groupId: 1 },
          { kind: "webhook", id: 21, name: "Hook 21", groupId: 2 },
          { kind: "group", id: 1, name: "A" },
          { kind: "group", id: 2, name: "B" },
        ],
      },
    ]);
  });

  it("stays quiet within one group, across objects, without a common action, or when one is disabled", () => {
    const inOneGroup = setup([group({ webhooks: [webhook({ url }), webhook({ url })] })]);
    expect(check("duplicate-url-trigger", inOneGroup)).toEqual([]);
    const otherObject = setup([group({ webhooks: [webhook({ url })] }), group({ webhooks: [webhook({ url, trigger_object: "session" })] })]);
    expect(check("duplicate-url-trigger", otherObject)).toEqual([]);
    const noCommonAction = setup([
      group({ webhooks: [webhook({ url, trigger_on_insert: true, trigger_on_update: false, trigger_on_delete: false })] }),
      group({ webhooks: [webhook({ url, trigger_on_insert: false, trigger_on_update: true, trigger_on_delete: undefined })] }),
    ]);
    expect(check("duplicate-url-trigger", noCommonAction)).toEqual([]);
    const oneDisabled = setup([group({ webhooks: [webhook({ url })] }), group({ webhooks: [webhook({ url, enabled: false })] })]);
    expect(check("duplicate-url-trigger", oneDisabled)).toEqual([]);
  });
});

describe("insert-without-delete", () => {
  it("fires when a group sends inserts of an object and nothing sends its deletions", () => {
    const data = setup([
      group({
        id: 3,
        name: "Sessions",
        webhooks: [
          webhook({ id: 31, name: "New sessions", trigger_object: "session", trigger_on_delete: false }),
          webhook({ id: 32, trigger_object: "session", trigger_on_insert: false, trigger_on_delete: true, enabled: false }),
        ],
      }),
    ]);
    expect(check("insert-without-delete", data)).toEqual([
      {
        ruleId: "insert-without-delete",
        severity: "warning",
        key: "3:session",
        message: "Group “Sessions” sends session inserts (webhook “New sessions”) but no session deletions.",
        subjects: [
          { kind: "group", id: 3, name: "Sessions" },
          { kind: "webhook", id: 31, name: "New sessions", groupId: 3 },
        ],
      },
    ]);
  });

  it("stays quiet when another webhook of the group sends the deletions, or may (switch missing)", () => {
    const withDeleter = (deleter: Partial<Webhook>) =>
      setup([
        group({
          webhooks: [webhook({ trigger_object: "session", trigger_on_delete: false }), webhook({ trigger_object: "session", trigger_on_insert: false, ...deleter })],
        }),
      ]);
    expect(check("insert-without-delete", withDeleter({ trigger_on_delete: true }))).toEqual([]);
    expect(check("insert-without-delete", withDeleter({ trigger_on_delete: undefined }))).toEqual([]);
    // The deletions in another group do not reach this group's receiver: still a finding.
    const elsewhere = setup([
      group({ webhooks: [webhook({ trigger_object: "session", trigger_on_delete: false })] }),
      group({ webhooks: [webhook({ trigger_object: "session", trigger_on_delete: true })] }),
    ]);
    expect(check("insert-without-delete", elsewhere)).toHaveLength(1);
  });

  it("does not claim inserts from a missing insert switch or a missing object", () => {
    const data = setup([
      group({ webhooks: [webhook({ trigger_on_insert: undefined, trigger_on_delete: false }), webhook({ trigger_object: undefined, trigger_on_delete: false })] }),
    ]);
    expect(check("insert-without-delete", data)).toEqual([]);
  });
});

describe("webhook-ended-events-only", () => {
  it("fires for an enabled webhook whose events are all closed, cancelled or over", () => {
    const findings = check("webhook-ended-events-only", setup([healthyGroup({}, { event_ids: [3, 4, 5] })]));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: "notice",
      key: "100",
      message: "Webhook “CRM sync” in “CRM” only fires for ended events “Spring gala”, “Winter ball” and “Old expo”.",
    });
  });

  it("stays quiet with one open event, for catch-all or disabled webhooks, and for events it cannot see", () => {
    expect(check("webhook-ended-events-only", setup([healthyGroup({}, { event_ids: [3, 2] })]))).toEqual([]);
    expect(check("webhook-ended-events-only", setup([healthyGroup({}, { any_event: true, event_ids: [3] })]))).toEqual([]);
    expect(check("webhook-ended-events-only", setup([healthyGroup({}, { enabled: false, event_ids: [3] })]))).toEqual([]);
    expect(check("webhook-ended-events-only", setup([healthyGroup({}, { event_ids: [3, 999] })]))).toEqual([]);
    expect(check("webhook-ended-events-only", setup([healthyGroup({}, { event_ids: [] })]))).toEqual([]);
  });

  it("judges 'over' by the UTC date it is given, not by the machine's clock", () => {
    const data = setup([healthyGroup({}, { event_ids: [1] })]);
    expect(check("webhook-ended-events-only", data)).toEqual([]);
    const later = ruleById("webhook-ended-events-only")!.check(data, { now: new Date("2026-06-21T00:00:00Z"), requiredTriggers: [] });
    expect(later).toHaveLength(1);
  });
});

describe("shared-credential-header", () => {
  const SECRET = "k-9f8e7d6c5b4a3921";

  it("fires for a credential header with the same value in several groups, naming header and groups only", () => {
    const data = setup([
      group({ id: 1, name: "A", headers: [{ key: "X-Api-Key", value: SECRET }] }),
      group({ id: 2, name: "B", webhooks: [webhook({ id: 21, headers: [{ key: "x-api-key", value: ` ${SECRET} ` }] })] }),
      group({ id: 3, name: "C", headers: [{ key: "X-Api-Key", value: "another-value" }] }),
    ]);
    const findings = check("shared-credential-header", data);
    expect(findings).toEqual([
      {
        ruleId: "shared-credential-header",
        severity: "warning",
        key: "x-api-key@1,2",
        message: "Header “X-Api-Key” has the same value in 2 groups: “A” and “B”.",
        subjects: [
          { kind: "group", id: 1, name: "A" },
          { kind: "group", id: 2, name: "B" },
          { kind: "webhook", id: 21, name: "Hook 21", groupId: 2 },
        ],
      },
    ]);
  });

  it("matches Authorization, token and secret headers, across header names", () => {
    const bearer = "Bearer abc.def.ghi";
    const data = setup([
      group({
        id: 1,
        headers: [
          { key: "Authorization", value: bearer },
          { key: "X-Webhook-Secret", value: "s1" },
          { key: "X-Auth-Token", value: "t1" },
        ],
      }),
      group({
        id: 2,
        headers: [
          { key: "Proxy-Authorization", value: bearer },
          { key: "X-Webhook-Secret", value: "s1" },
          { key: "X-Auth-Token", value: "t1" },
        ],
      }),
    ]);
    expect(check("shared-credential-header", data).map((finding) => finding.key)).toEqual([
      "authorization,proxy-authorization@1,2",
      "x-webhook-secret@1,2",
      "x-auth-token@1,2",
    ]);
  });

  it("stays quiet for the same value in one group, for non-credential headers and for empty values", () => {
    const data = setup([
      group({ id: 1, headers: [{ key: "X-Api-Key", value: SECRET }], webhooks: [webhook({ headers: [{ key: "X-Api-Key", value: SECRET }] })] }),
      group({
        id: 2,
        headers: [
          { key: "X-Source", value: "ems" },
          { key: "X-Api-Key", value: "" },
        ],
      }),
      group({
        id: 3,
        headers: [
          { key: "X-Source", value: "ems" },
          { key: "X-Api-Key", value: "" },
        ],
      }),
    ]);
    expect(check("shared-credential-header", data)).toEqual([]);
  });
});

describe("required-trigger-missing", () => {
  const required: TriggerKey[] = ["registrant:insert", "registrant:delete", "session:insert"];

  it("fires once per live event, listing the missing triggers", () => {
    const data = setup([healthyGroup({}, { trigger_on_delete: false })]);
    expect(check("required-trigger-missing", data, required)).toEqual([
      {
        ruleId: "required-trigger-missing",
        severity: "error",
        key: "1:registrant:delete,session:insert",
        message: "Live event “Summit” has no enabled webhook for registrant:delete and session:insert.",
        subjects: [{ kind: "event", id: 1, name: "Summit" }],
      },
    ]);
  });

  it("counts a disabled webhook as missing, and a catch-all one as present", () => {
    expect(check("required-trigger-missing", setup([healthyGroup({}, { enabled: false })]), ["registrant:insert"])).toHaveLength(1);
    expect(check("required-trigger-missing", setup([healthyGroup({}, { any_event: true, event_ids: [] })]), ["registrant:insert"])).toEqual([]);
  });

  it("stays quiet with no required triggers, for events that are not live, and when unknowns may cover it", () => {
    expect(check("required-trigger-missing", setup([healthyGroup({}, { trigger_on_delete: false })]), [])).toEqual([]);
    expect(
      check(
        "required-trigger-missing",
        setup(
          [healthyGroup({}, { event_ids: [2, 5] })],
          standardEvents().filter((e) => e.id !== 1),
        ),
        required,
      ),
    ).toEqual([]);
    // A missing delete switch may be on; a webhook with unknown events may serve event 1.
    expect(check("required-trigger-missing", setup([healthyGroup({}, { trigger_on_delete: undefined })]), ["registrant:delete"])).toEqual([]);
    expect(check("required-trigger-missing", setup([healthyGroup({}, { any_event: undefined, event_ids: undefined })]), ["registrant:insert"])).toEqual([]);
  });
});

describe("live-event-uncovered", () => {
  it("fires for a live event no enabled webhook fires for", () => {
    const data = setup([healthyGroup({}, { event_ids: [2] }), group({ webhooks: [webhook({ event_ids: [1], enabled: false })] })]);
    expect(check("live-event-uncovered", data)).toEqual([
      {
        ruleId: "live-event-uncovered",
        severity: "warning",
        key: "1",
        message: "Live event “Summit” has no enabled webhook: none of its changes reach your systems.",
        subjects: [{ kind: "event", id: 1, name: "Summit" }],
      },
    ]);
  });

  it("stays quiet when a webhook lists it, a catch-all webhook may fire, or a webhook's events are unknown", () => {
    expect(check("live-event-uncovered", setup([healthyGroup()]))).toEqual([]);
    expect(check("live-event-uncovered", setup([healthyGroup({}, { any_event: true, event_ids: [] })]))).toEqual([]);
    expect(check("live-event-uncovered", setup([healthyGroup({}, { any_event: undefined, event_ids: undefined, enabled: undefined })]))).toEqual([]);
    // Live by status but over: not live.
    expect(check("live-event-uncovered", setup([healthyGroup()], [event({ id: 9, status: "live", end_date: "2026-06-14" })]))).toEqual([]);
  });
});

describe("missing fields mean unknown", () => {
  const bare = (id: number): Webhook => ({ id });

  it("finds nothing in records that hold only ids", () => {
    const data: SetupData = { groups: [{ id: 1 }, { id: 2, webhooks: [bare(21), bare(22)] }], events: [{ id: 1 }, { id: 2 }] };
    expect(runHealthChecks(data, { now: NOW, requiredTriggers: ["registrant:insert"] })).toEqual([]);
  });

  it("reads a list of events with any_event missing as the webhook's events", () => {
    const data = setup([healthyGroup({}, { any_event: undefined, enabled: false })]);
    expect(check("disabled-webhook-live-event", data)).toHaveLength(1);
  });

  it("names records without names by id", () => {
    const data: SetupData = { groups: [{ id: 4, notification_emails: [], webhooks: [{ id: 41, url: "http://x.example/" }] }], events: [{ id: 1, status: "live" }] };
    const messages = runHealthChecks(data, { now: NOW, requiredTriggers: [] }).map((finding) => finding.message);
    expect(messages).toContain("Webhook “#41” in “#4” posts to http://x.example.");
  });

  it("treats an event without status or dates as open but not live", () => {
    const data = setup([healthyGroup({}, { event_ids: [8] })], [{ id: 8, name: "Unknown" }]);
    expect(runHealthChecks(data, { now: NOW, requiredTriggers: ["session:insert"] })).toEqual([]);
  });
});

describe("header values never leave the checks", () => {
  it("keeps every header value out of messages, keys and subjects", () => {
    const values = ["k-SECRET-1234567890", "Bearer SECRET-abcdef", "tok-SECRET-x", "plain-SECRET-value"];
    const data = setup(
      [
        group({
          id: 1,
          notification_emails: [],
          headers: [
            { key: "X-Api-Key", value: values[0] },
            { key: "X-Source", value: values[3] },
          ],
          webhooks: [webhook({ url: "http://a.example/", headers: [{ key: "Authorization", value: values[1] }] })],
        }),
        group({
          id: 2,
          headers: [
            { key: "X-Api-Key", value: values[0] },
            { key: "X-Source", value: values[3] },
          ],
          webhooks: [
            webhook({
              url: "http://a.example/",
              headers: [
                { key: "Authorization", value: values[1] },
                { key: "X-Token", value: values[2] },
              ],
            }),
          ],
        }),
        group({
          id: 3,
          webhooks: [
            webhook({
              event_ids: [3],
              headers: [
                { key: "X-Token", value: values[2] },
                { key: "Authorization", value: values[1] },
              ],
            }),
          ],
        }),
      ],
      standardEvents(),
    );
    const findings = runHealthChecks(data, { now: NOW, requiredTriggers: ["session:insert"] });
    expect(findings.filter((finding) => finding.ruleId === "shared-credential-header")).toHaveLength(3);
    const text = JSON.stringify(findings);
    expect(text).not.toContain("SECRET");
    for (const value of values) expect(text).not.toContain(value);
  });
});

describe("finding keys", () => {
  it("do not change when unrelated records are added, renamed or reordered", () => {
    const url = "https://hooks.example.com/dup";
    const faulty = () => [
      group({
        id: 1,
        name: "A",
        notification_emails: [],
        headers: [{ key: "X-Api-Key", value: "k-shared-1" }],
        webhooks: [webhook({ id: 11, url: "http://a.example/", trigger_on_delete: false }), webhook({ id: 12, url, event_ids: [3] })],
      }),
      group({
        id: 2,
        name: "B",
        headers: [{ key: "X-Api-Key", value: "k-shared-1" }],
        webhooks: [webhook({ id: 21, url, enabled: false, event_ids: [1] }), webhook({ id: 22, url, event_ids: [2] })],
      }),
    ];
    const context = { now: NOW, requiredTriggers: ["session:insert"] as TriggerKey[] };
    const keysOf = (data: SetupData) => runHealthChecks(data, context).map((finding) => `${finding.ruleId} ${finding.key}`);
    const before = keysOf(setup(faulty(), [...standardEvents(), event({ id: 7, name: "Uncovered" })]));
    expect(before.length).toBeGreaterThanOrEqual(8);

    const renamed = faulty().map((candidate) => ({ ...candidate, name: `${candidate.name} (renamed)` }));
    const unrelated = group({ id: 3, webhooks: [webhook({ id: 31, event_ids: [2] })] });
    const events = [event({ id: 7, name: "Uncovered, renamed" }), ...standardEvents().reverse(), event({ id: 8, status: "draft" })];
    expect(keysOf(setup([unrelated, ...renamed.reverse()], events)).sort()).toEqual([...before].sort());
  });
});
