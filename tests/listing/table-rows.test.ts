import { describe, expect, it } from "vitest";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { tableData } from "@/lib/listing/table-rows";

const state = (resource: "webhook-groups" | "events", query: Record<string, string> = {}) => parseListingSearchParams(resource, query);

describe("tableData: a listing's rows as compact data", () => {
  it("links the id column, cuts lists to data and keeps the order of the chosen fields", () => {
    const data = tableData(state("webhook-groups", { fields: "name,id,headers,notification_emails" }), [
      { id: 7, name: "Support", headers: [{ key: "X-Api-Key", value: "secret" }], notification_emails: ["a@example.org", "b@example.org", "c@example.org"] },
    ]);
    expect(data.columns.map((c) => [c.field, c.kind])).toEqual([
      ["name", "text"],
      ["id", "link"],
      ["headers", "code-list"],
      ["notification_emails", "list"],
      ["webhooks", "contents"],
    ]);
    expect(data.rows).toEqual([{ id: "7", cells: ["Support", "7", ["X-Api-Key"], ["a@example.org", "b@example.org", "c@example.org"], ["0 webhooks", ""]] }]);
    // A header's value never reaches the page's data: only its name.
    expect(JSON.stringify(data)).not.toContain("secret");
  });

  it("links the name when the id column is hidden, and a row without an id links nowhere", () => {
    const data = tableData(state("webhook-groups", { fields: "name" }), [{ name: "No id" }]);
    expect(data.columns[0].kind).toBe("link");
    expect(data.rows[0].id).toBeUndefined();
  });

  it("writes an event's dates in its own zone on the server, and absent optional values as null", () => {
    const data = tableData(state("events", { fields: "id,start_date,created_at,capacity,free_event,status" }), [
      {
        id: 1,
        start_date: "2026-07-01",
        start_time: "09:30:00",
        timezone: "Europe/Warsaw",
        created_at: "2026-01-15 08:00:00",
        capacity: null,
        free_event: 1,
        status: "live",
      },
    ]);
    expect(data.rows[0].cells).toEqual(["1", "2026-07-01 09:30 GMT+2", "2026-01-15 09:00 GMT+1", null, "Yes", "live"]);
    expect(data.columns.find((c) => c.field === "status")!.kind).toBe("status");
  });

  it("marks changed rows, says what is in each group, and with expand=webhooks gives each group its webhooks in one line each", () => {
    const data = tableData(
      state("webhook-groups", { expand: "webhooks", fields: "id,name" }),
      [
        {
          id: 3,
          name: "Ops",
          webhooks: [
            {
              id: 1,
              name: "Sync",
              url: "https://hooks.example.org/a",
              trigger_object: "attendee",
              trigger_on_insert: true,
              trigger_on_update: 1,
              trigger_on_delete: false,
              enabled: true,
            },
            { id: 2, name: "Old", url: "https://hooks.example.org/b", trigger_object: "event", enabled: false, headers: [{ key: "K", value: "hidden" }] },
          ],
        },
        { id: 4, name: "", webhooks: [] },
      ],
      new Set([4]),
    );
    expect(data.rows[0]).toEqual({
      id: "3",
      cells: ["3", "Ops"],
      webhooks: [
        ["Sync", "https://hooks.example.org/a", "attendee", "iu", true, "1"],
        ["Old", "https://hooks.example.org/b", "event", "", false, "2"],
      ],
    });
    // Expanded, the lines say what is in the group: no "Contents" column.
    expect(data.columns.map((column) => column.kind)).not.toContain("contents");
    expect(data.rows[1]).toEqual({ id: "4", cells: ["4", ""], changed: true, webhooks: [] });
    // Collapsed, each group says what is in it.
    const collapsed = tableData(state("webhook-groups", { fields: "id,name" }), [
      {
        id: 3,
        name: "Ops",
        webhooks: [
          { id: 1, url: "https://hooks.example.org/a", enabled: true },
          { id: 2, url: "https://hooks.example.org/b", enabled: false },
          { id: 5, url: "http://10.0.0.1:8080/c?token=x", enabled: true },
        ],
      },
    ]);
    expect(collapsed.columns.at(-1)).toEqual({ field: "webhooks", label: "Contents", kind: "contents" });
    expect(collapsed.rows[0].cells[2]).toEqual(["3 webhooks", "2 enabled, 1 disabled", "hooks.example.org", "10.0.0.1:8080"]);
    // With the name column hidden, the name comes along for the caption of the webhooks.
    const hidden = tableData(state("webhook-groups", { expand: "webhooks", fields: "id" }), [{ id: 3, name: "Ops", webhooks: [] }]);
    expect(hidden.rows[0]).toEqual({ id: "3", cells: ["3"], name: "Ops", webhooks: [] });
    expect(JSON.stringify(data)).not.toContain("hidden");
  });

  it("writes a value of an unexpected shape as text, never as markup", () => {
    const data = tableData(state("webhook-groups", { fields: "id,name" }), [{ id: 9, name: { html: "<b>x</b>" } }]);
    expect(data.rows[0].cells[1]).toBe('{"html":"<b>x</b>"}');
    expect(data.rows[0].cells[2]).toEqual(["0 webhooks", ""]);
  });
});
