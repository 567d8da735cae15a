/**
 * A person's form submissions over HTTP, as a browser without JavaScript sends them: the page's
 * HTML is read, the form is found by a marker inside it (a test id), its hidden fields (the server
 * action's own `$ACTION_…` fields among them) are kept, the person's fields are added, and the form
 * is posted to the page's address (components/forms/use-action-form.ts renders every form so).
 * The benches then drive the production server's real actions, not the data functions behind them.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => ENTITIES[name]);

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/([\w$:.-]+)="([^"]*)"/g)) found.set(match[1], decode(match[2]));
  return found;
}

/** The hidden fields of the first form of `html` that contains `marker`. */
export function hiddenFieldsOf(html: string, marker: string): Map<string, string> {
  for (const form of html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)) {
    if (!form[1].includes(marker)) continue;
    const fields = new Map<string, string>();
    for (const input of form[1].matchAll(/<input\b[^>]*>/g)) {
      const attrs = attributes(input[0]);
      if (attrs.get("type") === "hidden" && attrs.has("name")) fields.set(attrs.get("name")!, attrs.get("value") ?? "");
    }
    return fields;
  }
  throw new Error(`no form with ${marker} on the page`);
}

export interface Submitted {
  status: number;
  location: string | null;
  body: string;
}

/**
 * Submits the form marked `marker` on the page at `url` with `fields` on top of its hidden ones.
 * `html`: the page as already fetched (else it is fetched first).
 */
export async function submitForm(url: string, cookie: string, marker: string, fields: Record<string, string>, html?: string): Promise<Submitted> {
  const page = html ?? (await (await fetch(url, { headers: { cookie } })).text());
  const body = new FormData();
  for (const [name, value] of hiddenFieldsOf(page, marker)) if (!(name in fields)) body.append(name, value);
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const response = await fetch(url, { method: "POST", body, redirect: "manual", headers: { cookie, origin: new URL(url).origin } });
  return { status: response.status, location: response.headers.get("location"), body: await response.text() };
}
