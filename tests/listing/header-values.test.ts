import { describe, expect, it } from "vitest";
import { HIDDEN_VALUE, withHeaderValuesHidden, withoutHeaderValues } from "@/lib/listing/header-values";

/** A group with secret values in its own headers and in one webhook's, a fresh copy each call. */
const crmSyncGroup = () => ({
  id: 7,
  name: "CRM sync",
  headers: [
    { key: "Authorization", value: "Bearer abc.def" },
    { key: "X-Api-Key", value: "k_live_123" },
  ],
  webhooks: [
    { id: 1, url: "https://hooks.example/a", headers: [{ key: "X-Token", value: "t0k3n" }] },
    { id: 2, url: "https://hooks.example/b" },
  ],
});

describe("an export's webhook header values", () => {
  it("are hidden in the group's headers and in each webhook's, names kept, nothing else changed", () => {
    const group = crmSyncGroup();
    const hidden = withHeaderValuesHidden(group);
    expect(hidden).toEqual({
      id: 7,
      name: "CRM sync",
      headers: [
        { key: "Authorization", value: HIDDEN_VALUE },
        { key: "X-Api-Key", value: HIDDEN_VALUE },
      ],
      webhooks: [
        { id: 1, url: "https://hooks.example/a", headers: [{ key: "X-Token", value: HIDDEN_VALUE }] },
        { id: 2, url: "https://hooks.example/b" },
      ],
    });
    expect(JSON.stringify(hidden)).not.toMatch(/abc\.def|k_live|t0k3n/);
    // The row it was made from is left as it was.
    expect(group.headers[0].value).toBe("Bearer abc.def");
  });

  it("are hidden whatever shape the headers come in", () => {
    expect(withHeaderValuesHidden({ headers: { Authorization: "Basic eDp5" } }).headers).toEqual({ Authorization: HIDDEN_VALUE });
    expect(withHeaderValuesHidden({ headers: ["Authorization: Basic eDp5"] }).headers).toEqual([HIDDEN_VALUE]);
    expect(withHeaderValuesHidden({ headers: "Authorization: Basic eDp5" }).headers).toBe(HIDDEN_VALUE);
    expect(withHeaderValuesHidden({ headers: [] }).headers).toEqual([]);
    expect(withHeaderValuesHidden({ id: 1 })).toEqual({ id: 1 });
  });
});

describe("a group as its page holds it", () => {
  it("keeps every header's name and no value, the group's and each webhook's; unknown stays unknown", () => {
    const group = crmSyncGroup();
    const forPage = withoutHeaderValues(group);
    expect(forPage).toEqual({
      id: 7,
      name: "CRM sync",
      headers: [{ key: "Authorization" }, { key: "X-Api-Key" }],
      webhooks: [
        { id: 1, url: "https://hooks.example/a", headers: [{ key: "X-Token" }] },
        { id: 2, url: "https://hooks.example/b" },
      ],
    });
    expect(JSON.stringify(forPage)).not.toMatch(/abc\.def|k_live|t0k3n|value/);
    expect(withoutHeaderValues({ id: 8 })).toEqual({ id: 8 });
  });
});
