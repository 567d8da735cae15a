import { setRequiredTriggersAction } from "@/lib/actions/coverage/set-required-triggers";
import { REQUIRE_FIELD_PREFIX, REQUIRED_TRIGGERS_FORM } from "@/lib/actions/coverage/set-required-triggers.validation";
import { TRIGGER_OBJECTS } from "@/lib/ems/contract";
import { TRIGGER_ACTIONS, type TriggerKey } from "@/lib/setup/setup-data";
import { triggerLabel, triggerObjectLabel } from "@/lib/setup/triggers";
import { ActionForm } from "@/components/forms/action-form";
import { buttonClasses } from "@/components/ui/button";

/**
 * The team's required triggers: "every live event must send registrant insert, update and
 * delete". Owners and admins change them (the action checks the role again); members read them.
 */
export function RequiredTriggers({ required, canEdit }: { required: readonly TriggerKey[]; canEdit: boolean }) {
  const summary = required.length === 0 ? "none" : required.map(triggerLabel).join(", ");
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="required-triggers">
      <summary className="cursor-pointer font-medium text-slate-800">
        Required triggers: <span className="font-normal text-slate-700">{summary}</span>
      </summary>
      {canEdit ? (
        <ActionForm action={setRequiredTriggersAction} label="Required triggers" className="mt-3 flex flex-col gap-3" testId="required-triggers-form">
          <input type="hidden" name={REQUIRED_TRIGGERS_FORM.name} value={REQUIRED_TRIGGERS_FORM.value} />
          <p className="text-slate-600">
            Every live event must have an enabled webhook for each trigger ticked here. Events that miss one fail, here and on the Health page.
          </p>
          <div className="grid gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
            {TRIGGER_OBJECTS.map((object) => (
              <fieldset key={object} className="min-w-0">
                <legend className="font-medium text-slate-800">{triggerObjectLabel(object)}</legend>
                <div className="mt-1 flex flex-wrap gap-x-3">
                  {TRIGGER_ACTIONS.map((action) => {
                    const key = `${object}:${action}` as TriggerKey;
                    return (
                      <label key={key} className="inline-flex items-center gap-1.5">
                        <input type="checkbox" name={`${REQUIRE_FIELD_PREFIX}${key}`} defaultChecked={required.includes(key)} aria-label={triggerLabel(key)} />
                        {action}
                      </label>
                    );
                  })}
                </div>
              </fieldset>
            ))}
          </div>
          <div>
            <button type="submit" className={buttonClasses("primary", { size: "sm" })}>
              Save required triggers
            </button>
          </div>
        </ActionForm>
      ) : (
        <p className="mt-2 text-slate-600">Owners and admins choose them.</p>
      )}
    </details>
  );
}
