import { HeaderList } from "./hidden-value";

interface Webhook {
  id?: unknown;
  name?: unknown;
  url?: unknown;
  trigger_object?: unknown;
  trigger_on_insert?: unknown;
  trigger_on_update?: unknown;
  trigger_on_delete?: unknown;
  enabled?: unknown;
  content_type?: unknown;
  headers?: unknown;
}

/** The lib/ems parser turns `webhooks` into a list; an object keyed by id is accepted here too. */
export function webhooksOf(value: unknown): Webhook[] {
  if (Array.isArray(value)) return value as Webhook[];
  if (value && typeof value === "object") return Object.values(value as Record<string, Webhook>);
  return [];
}

const yesNo = (value: unknown) => (value === true || value === 1 || value === "1" ? "Yes" : "No");

export function WebhookTable({ webhooks, caption, showHeaders = false }: { webhooks: unknown; caption: string; showHeaders?: boolean }) {
  const list = webhooksOf(webhooks);
  if (list.length === 0) return <p className="text-sm text-slate-600">No webhooks in this group.</p>;
  return (
    <table
      className="w-full min-w-[40rem] border-collapse text-left text-sm [&_td]:px-2! [&_td]:py-1! [&_th]:px-2 [&_th]:py-1 [&>tbody>tr]:border-b [&>tbody>tr]:border-slate-100 [&>tbody>tr]:align-top"
      data-testid="webhook-table"
    >
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300 text-xs uppercase text-slate-700">
          <th scope="col">Webhook</th>
          <th scope="col">URL</th>
          <th scope="col">Trigger object</th>
          <th scope="col">Insert</th>
          <th scope="col">Update</th>
          <th scope="col">Delete</th>
          <th scope="col">Enabled</th>
          {showHeaders ? <th scope="col">Headers</th> : null}
        </tr>
      </thead>
      <tbody>
        {list.map((webhook, index) => (
          <tr key={String(webhook.id ?? index)} data-testid="webhook-row">
            <td>{String(webhook.name ?? "")}</td>
            <td className="max-w-xs break-all font-mono text-xs">{String(webhook.url ?? "")}</td>
            <td>{String(webhook.trigger_object ?? "")}</td>
            <td>{yesNo(webhook.trigger_on_insert)}</td>
            <td>{yesNo(webhook.trigger_on_update)}</td>
            <td>{yesNo(webhook.trigger_on_delete)}</td>
            <td>
              {yesNo(webhook.enabled) === "Yes" ? (
                <span className="rounded bg-green-100 px-1.5 text-xs text-green-900">Enabled</span>
              ) : (
                <span className="rounded bg-slate-200 px-1.5 text-xs text-slate-800">Disabled</span>
              )}
            </td>
            {showHeaders ? (
              <td>
                <HeaderList headers={webhook.headers} />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
