import { SandboxHttpError } from "../core/errors";

/**
 * A form-encoded write body (docs/ems-api.md §8.1) in the framework's bracket convention:
 * `name=x` a value, `event_ids[]=12&event_ids[]=15` a list, `headers[0][key]=…&headers[0][value]=…`
 * a list of objects (by index, in index order), and a bare `event_ids=` an empty list (the caller
 * knows which names are lists). Names that fit none of these forms are kept as `malformed`, so the
 * validator can name them as unknown fields.
 */
export type FormBody = {
  /** `name=value`, in the order sent; a repeated name keeps its last value */
  values: Map<string, string>;
  /** `name[]=value`, in the order sent */
  lists: Map<string, string[]>;
  /** `name[i][property]=value`, by index, the indexes in ascending order */
  objectLists: Map<string, Map<number, Map<string, string>>>;
  /** base names of keys in no known form (`a[b]`, `a[0]`, `[x]`) */
  malformed: string[];
};

const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*)(.*)$/s;
const OBJECT_ENTRY = /^\[(\d{1,4})\]\[([A-Za-z_][A-Za-z0-9_]*)\]$/;

/** 415 unless the body is declared form-encoded (docs/ems-api.md §8.1). */
export function requireFormBody(contentType: string | undefined): void {
  if (!contentType || !FORM_CONTENT_TYPE.test(contentType.trim())) {
    throw new SandboxHttpError(415, "Send the body as application/x-www-form-urlencoded;charset=UTF-8.");
  }
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    throw new SandboxHttpError(400, "The body is not valid form encoding (a malformed %-escape).");
  }
}

export function parseFormBody(body: string): FormBody {
  const form: FormBody = { values: new Map(), lists: new Map(), objectLists: new Map(), malformed: [] };
  if (body === "") return form;
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const key = decodePart(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? "" : decodePart(pair.slice(equals + 1));
    const match = KEY.exec(key);
    if (!match) {
      form.malformed.push(key);
      continue;
    }
    const [, name, suffix] = match;
    if (suffix === "") {
      form.values.delete(name);
      form.values.set(name, value);
    } else if (suffix === "[]") {
      form.lists.set(name, [...(form.lists.get(name) ?? []), value]);
    } else {
      const entry = OBJECT_ENTRY.exec(suffix);
      if (!entry) {
        form.malformed.push(name);
        continue;
      }
      const list = form.objectLists.get(name) ?? new Map<number, Map<string, string>>();
      form.objectLists.set(name, list);
      const index = Number(entry[1]);
      const object = list.get(index) ?? new Map<string, string>();
      list.set(index, object);
      object.set(entry[2], value);
    }
  }
  for (const [name, list] of form.objectLists) form.objectLists.set(name, new Map([...list].sort(([a], [b]) => a - b)));
  return form;
}

/** Every name the body sends, in any form. */
export function sentNames(form: FormBody): Set<string> {
  return new Set([...form.values.keys(), ...form.lists.keys(), ...form.objectLists.keys(), ...form.malformed]);
}
