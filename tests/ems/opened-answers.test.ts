import { randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { forgetOpenedAnswers, forgetOpenedAnswersOf, openedAnswer, rememberedAnswer, sharedRecords, summaryOf } from "@/lib/ems/opened-answers";

const key = () => randomBytes(32).toString("base64");
let saved: string | undefined;

beforeEach(() => {
  saved = process.env.CREDENTIAL_ENCRYPTION_KEYS;
  process.env.CREDENTIAL_ENCRYPTION_KEYS = `k1:${key()}`;
  forgetOpenedAnswers();
});
afterEach(() => {
  if (saved === undefined) delete process.env.CREDENTIAL_ENCRYPTION_KEYS;
  else process.env.CREDENTIAL_ENCRYPTION_KEYS = saved;
});

const aad = "EmsSharedAnswer:team:fp:hash:ciphertext";
const opener = (ciphertext: string, scope = aad) => vi.fn(() => JSON.parse(decryptSecret(ciphertext, scope)) as { items: { id: number }[] });

describe("openedAnswer: a shared answer is decrypted and parsed once per process", () => {
  it("opens a ciphertext once, then gives the same frozen answer", () => {
    const ciphertext = encryptSecret(JSON.stringify({ items: [{ id: 1 }] }), aad);
    const open = opener(ciphertext);
    const first = openedAnswer(ciphertext, aad, open);
    const second = openedAnswer(ciphertext, aad, open);
    expect(open).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    expect(first.items[0].id).toBe(1);
    // No page view can change it for the next one.
    expect(() => {
      first.items[0].id = 2;
    }).toThrow(TypeError);
    expect(() => first.items.push({ id: 3 })).toThrow(TypeError);
  });

  it("opens a newly stored answer (a new encryption of the same text too) and another scope's apart", () => {
    const text = JSON.stringify({ items: [{ id: 1 }] });
    const one = encryptSecret(text, aad);
    const again = encryptSecret(text, aad);
    openedAnswer(one, aad, opener(one));
    const openAgain = opener(again);
    openedAnswer(again, aad, openAgain);
    expect(openAgain).toHaveBeenCalledTimes(1);

    const otherScope = "EmsSharedAnswer:other-team:fp:hash:ciphertext";
    const theirs = encryptSecret(text, otherScope);
    const openTheirs = opener(theirs, otherScope);
    openedAnswer(theirs, otherScope, openTheirs);
    expect(openTheirs).toHaveBeenCalledTimes(1);
  });

  it("keeps nothing when opening fails, and never serves a key that left the ring", () => {
    const ciphertext = encryptSecret(JSON.stringify({ items: [] }), aad);
    const failing = vi.fn(() => {
      throw new Error("tampered");
    });
    expect(() => openedAnswer(ciphertext, aad, failing)).toThrow("tampered");
    const open = opener(ciphertext);
    openedAnswer(ciphertext, aad, open);
    expect(open).toHaveBeenCalledTimes(1);

    // The key is rotated away: the remembered answer is not used, the opening runs (and fails).
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `k2:${key()}`;
    const afterRotation = vi.fn(() => decryptSecret(ciphertext, aad));
    expect(() => openedAnswer(ciphertext, aad, afterRotation)).toThrow();
    expect(afterRotation).toHaveBeenCalledTimes(1);
  });
});

describe("rememberedAnswer: an opened answer found by the row's summary, without its ciphertext", () => {
  it("finds only what was opened, under its own scope, length, beginning and a key still in the ring", () => {
    const ciphertext = encryptSecret(JSON.stringify({ items: [{ id: 1 }] }), aad);
    const summary = summaryOf(ciphertext);
    expect(summary).toEqual({ length: ciphertext.length, head: ciphertext.slice(0, 160), keyId: "k1" });
    // Nothing opened yet, and a failed opening keeps nothing.
    expect(rememberedAnswer(summary, aad)).toBeUndefined();
    expect(() =>
      openedAnswer(ciphertext, aad, () => {
        throw new Error("tampered");
      }),
    ).toThrow("tampered");
    expect(rememberedAnswer(summary, aad)).toBeUndefined();

    const value = openedAnswer(ciphertext, aad, opener(ciphertext));
    expect(rememberedAnswer(summary, aad)).toBe(value);
    // A row stored anew (another instance's answer, same length or not), another scope: not this answer.
    const newer = encryptSecret(JSON.stringify({ items: [{ id: 2 }] }), aad);
    expect(newer.length).toBe(ciphertext.length);
    expect(rememberedAnswer(summaryOf(newer), aad)).toBeUndefined();
    // The beginning holds the IV, drawn anew for each encryption: one character off is another ciphertext.
    expect(newer.slice(0, 60)).not.toBe(ciphertext.slice(0, 60));
    expect(rememberedAnswer({ ...summary, head: `${summary.head.slice(0, -1)}${summary.head.endsWith("A") ? "B" : "A"}` }, aad)).toBeUndefined();
    expect(rememberedAnswer({ ...summary, length: summary.length + 1 }, aad)).toBeUndefined();
    expect(rememberedAnswer(summary, "EmsSharedAnswer:other-team:fp:hash:ciphertext")).toBeUndefined();

    // The key is rotated away: a miss, though the answer is still kept.
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `k2:${key()}`;
    expect(rememberedAnswer(summary, aad)).toBeUndefined();
  });
});

describe("forgetOpenedAnswersOf: a write drops what this process opened of the credential's answers", () => {
  it("forgets the credential's answers in every team, and keeps another credential's", () => {
    const scopes = ["EmsSharedAnswer:team-a:fp:h1:ciphertext", "EmsSharedAnswer:team-b:fp:h2:ciphertext", "EmsSharedAnswer:team-a:other-fp:h1:ciphertext"];
    const ciphertexts = scopes.map((scope) => encryptSecret(JSON.stringify({ items: [{ id: 1 }] }), scope));
    scopes.forEach((scope, index) => openedAnswer(ciphertexts[index], scope, opener(ciphertexts[index], scope)));
    forgetOpenedAnswersOf(":fp:");
    const kept = scopes.map((scope, index) => rememberedAnswer(summaryOf(ciphertexts[index]), scope) !== undefined);
    expect(kept).toEqual([false, false, true]);
  });
});

describe("sharedRecords: equal parts of an answer's records are one object", () => {
  const webhook = (id: number, headers: unknown[]) => ({
    id,
    fields: [],
    post_field_data: ["attendee_id", "email"],
    custom_fields: [{ key: "source", type: "static", value: "ems-portal" }],
    headers,
  });

  it("shares a part made of values only (a list of fields, a header, an empty list) between records", () => {
    const json = JSON.stringify([
      { id: 1, webhooks: [webhook(10, [{ key: "X-Api-Key", value: "a" }]), webhook(11, [{ key: "X-Api-Key", value: "a" }])] },
      { id: 2, webhooks: [webhook(12, [{ key: "X-Api-Key", value: "b" }])] },
    ]);
    const records = sharedRecords(json, JSON.parse(json) as { webhooks: ReturnType<typeof webhook>[] }[]);
    const [first, second, third] = [...records[0].webhooks, ...records[1].webhooks];
    expect(records).toEqual(JSON.parse(json));
    expect(second.post_field_data).toBe(first.post_field_data);
    expect(third.custom_fields).toBe(first.custom_fields);
    expect(third.fields).toBe(first.fields);
    expect(second.headers).toBe(first.headers);
    // Equal values only: another header's value is another part.
    expect(third.headers).not.toBe(first.headers);
    expect(third.headers[0]).not.toBe(first.headers[0]);
    expect(Object.isFrozen(first.headers[0])).toBe(true);
  });

  it("never shares a record (anything with an id) nor what holds one, even when equal", () => {
    const json = JSON.stringify([
      { id: 1, webhooks: [{ id: 5 }], parts: [{ id: 9 }] },
      { id: 2, webhooks: [{ id: 5 }], parts: [{ id: 9 }] },
    ]);
    const records = sharedRecords(json, JSON.parse(json) as { id: number; webhooks: object[]; parts: object[] }[]);
    expect(records[1].webhooks).not.toBe(records[0].webhooks);
    expect(records[1].webhooks[0]).not.toBe(records[0].webhooks[0]);
    expect(records[1].parts[0]).not.toBe(records[0].parts[0]);
  });
});

describe("sharedRecords: an opened answer's records hold each repeated short value once", () => {
  /** The heap after full collections (V8's own gc, exposed to this test only). */
  const heapUsed = (() => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    return () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
  })();

  /** A page as the EMS sends it: many webhooks repeating their format, method, header names and owner. */
  const pageJson = (salt: number) =>
    JSON.stringify(
      Array.from({ length: 20_000 }, (_, id) => ({
        id,
        url: `https://hooks.example.com/${salt}/${id}`,
        format: "json",
        method: "post",
        trigger: ["registration", "session_attendance", "registrant_line_item"][id % 3],
        owner: ["Grzegorz Brzęczyszczykiewicz", "Ana Lúcia Souza", "José García"][id % 3],
        headers: [{ key: "X-Api-Key" }, { key: "Accept-Language", value: "fr-CH, de;q=0.8" }],
      })),
    );

  it("keeps the same records (equal, frozen) in less heap than JSON.parse made them", () => {
    const parsedJson = pageJson(1);
    let base = heapUsed();
    const parsed = JSON.parse(parsedJson) as unknown[];
    const asParsed = heapUsed() - base;

    const sharedJson = pageJson(2);
    base = heapUsed();
    const records = sharedRecords(sharedJson, JSON.parse(sharedJson) as unknown[]);
    const asShared = heapUsed() - base;

    expect(records).toEqual(JSON.parse(sharedJson));
    expect(Object.isFrozen(records[0])).toBe(true);
    // Seven repeated strings in each of 20,000 records: about 2.5 MB of copies that are no longer there.
    expect(asShared).toBeLessThan(asParsed * 0.75);
    expect(parsed).toHaveLength(20_000);
  });
});
