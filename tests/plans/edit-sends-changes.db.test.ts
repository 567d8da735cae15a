// Issue 34 §3: an edit sends only the fields the person changed. The EMS may hold a list in a shape the
// edit form normalises: `event_ids` with an event twice ([3280, 3282, 3286, 3287, 3282]). The form
// shows it, sends it back without the repeat, and the plan compared the two lists exactly, so a
// URL-only edit became "Change the URL and events" and rewrote `event_ids`. Here the webhook is set
// up that way in the sandbox by a write as the EMS's own users make it (the API keeps a repeat), and
// the edit goes the form's way: its defaults (lib/plans/forms.ts), the fields it posts, the action's
// schema, the drafting.
//
// Checked: with lib/plans/operations.ts comparing lists exactly again (sameValue for event_ids), both
// tests fail: the step also sends event_ids.
import { describe, expect, it } from "vitest";
import { draftWebhookEditSchema as webhookEditSchema } from "@/lib/actions/plans/draft-webhook-edit.validation";
import type { WebhookEditDefaults } from "@/lib/plans/edits";
import { draftPlan } from "@/lib/plans/draft";
import { loadWebhookForm } from "@/lib/plans/forms";
import { readSteps } from "@/lib/plans/store";
import { planTeamPerTest } from "./support/plan-team";

const team = planTeamPerTest();

/** What the webhook edit form (components/plans/webhook-edit-form.tsx) posts for `defaults`, with `typed` over it. */
function formFields(defaults: WebhookEditDefaults, typed: Record<string, string>): Record<string, string> {
  const boxes: [string, boolean][] = [
    ["enabled", defaults.enabled],
    ["trigger_on_insert", defaults.onInsert],
    ["trigger_on_update", defaults.onUpdate],
    ["trigger_on_delete", defaults.onDelete],
    ["public_user", defaults.publicUser],
    ["admin_user", defaults.adminUser],
    ["api_call", defaults.apiCall],
    ["any_event", defaults.anyEvent],
  ];
  return {
    id: String(defaults.id),
    name: defaults.name,
    url: defaults.url,
    group_id: defaults.groupId === null ? "" : String(defaults.groupId),
    trigger_object: defaults.triggerObject,
    content_type: defaults.contentType,
    ...Object.fromEntries(boxes.filter(([, on]) => on).map(([name]) => [name, "on"])),
    event_ids: defaults.eventIds.join(", "),
    notes: defaults.notes,
    title: "",
    ...Object.fromEntries(
      defaults.headerNames.flatMap((key, index) => [
        [`header.${index}.key`, key],
        [`header.${index}.action`, "keep"],
      ]),
    ),
    ...typed,
  };
}

/** A webhook of the demo account that fires for chosen events, set to list one of them twice. */
async function webhookWithARepeatedEvent(): Promise<{ id: number; held: number[] }> {
  const hooks = (await team.client().listWebhooks({ perPage: 100, search: [{ field: "any_event", operator: "=", value: "0" }] })).items;
  const hook = hooks.find((candidate) => (candidate.event_ids ?? []).length >= 2)!;
  const held = [...hook.event_ids!, hook.event_ids![1]];
  await team.writer().updateWebhook(hook.id, { event_ids: held });
  await team.forget();
  return { id: hook.id, held };
}

async function draftedChanges(fields: Record<string, string>): Promise<Record<string, unknown>[]> {
  const input = webhookEditSchema.parse(fields);
  const { planId } = await draftPlan(team.owner, { title: input.title, edits: [{ kind: "webhook.update", id: input.id, values: input.values }] });
  return (await readSteps(planId)).map((step) => step.operation.changes as Record<string, unknown>);
}

describe("an edit sends only what the person changed", () => {
  it("a URL-only edit of a webhook whose event_ids lists an event twice changes only the URL", async () => {
    const { id, held } = await webhookWithARepeatedEvent();
    const form = await loadWebhookForm(team.owner, id);
    if (form.kind !== "ok") throw new Error(`the form did not load: ${JSON.stringify(form)}`);
    // The form starts from the list as the EMS holds it, repeat included.
    expect(form.defaults.eventIds).toEqual(held);

    const url = "https://hooks.example.org/moved/in";
    expect(await draftedChanges(formFields(form.defaults, { url }))).toEqual([{ url }]);
  });

  it("the same events typed in another order, without the repeat, are no change either", async () => {
    const { id, held } = await webhookWithARepeatedEvent();
    const form = await loadWebhookForm(team.owner, id);
    if (form.kind !== "ok") throw new Error(`the form did not load: ${JSON.stringify(form)}`);
    const retyped = [...new Set(held)].reverse().join(" ");
    expect(await draftedChanges(formFields(form.defaults, { event_ids: retyped, name: "Renamed, events as they were" }))).toEqual([
      { name: "Renamed, events as they were" },
    ]);
  });
});
