import { describe, expect, it } from "vitest";
import { filterFieldsOf, operatorsFor } from "@/lib/listing/filter-fields";
import { dateInWords, filterInWords, sortInWords } from "@/lib/listing/words";

describe("a listing's options in words", () => {
  it("writes a sort as people say it, with the default order named", () => {
    expect(sortInWords("events", [])).toBe("Default order (ID, lowest first)");
    expect(
      sortInWords("events", [
        { field: "start_date", direction: "desc" },
        { field: "name", direction: "asc" },
      ]),
    ).toBe("Starts, newest first; then Name A–Z");
    expect(sortInWords("webhook-groups", [{ field: "id", direction: "desc" }])).toBe("ID, highest first");
    expect(sortInWords("events", [{ field: "start_time", direction: "asc" }])).toBe("Start time, earliest first");
  });

  it("writes a filter with the field's label, the operator's words and a readable value", () => {
    expect(filterInWords("webhook-groups", { field: "name", operator: "=*contains*", value: "sync" }).text).toBe("Name contains sync");
    expect(filterInWords("events", { field: "start_date", operator: ">=", value: "2026-01-05" }).text).toBe("Starts on or after 5 Jan 2026");
    expect(filterInWords("events", { field: "status", operator: "=*in*", value: "live|draft|closed" }).text).toBe("Status is one of live, draft or closed");
    expect(filterInWords("events", { field: "updated_at", operator: "<", value: "2026-11-02 10:30:00" }).text).toBe("Updated before 2 Nov 2026, 10:30 UTC");
    // A part of a date ("begins with") is left as written.
    expect(filterInWords("events", { field: "created_at", operator: "=*beginswith*", value: "2026-11" }).text).toBe("Created begins with 2026-11");
  });

  it("leaves a date it cannot read as written", () => {
    expect(dateInWords("2026-13-01")).toBe("2026-13-01");
    expect(dateInWords("soon")).toBe("soon");
  });
});

describe("the filter editor's fields", () => {
  it("offers a status only the operators that make sense for it, with its values", () => {
    const status = filterFieldsOf("events").find((f) => f.name === "status")!;
    expect(status.input).toBe("choice");
    expect(status.choices).toEqual(["live", "draft", "closed", "cancelled"]);
    expect(status.operators.map((o) => o.label)).toEqual(["is", "is not", "is one of", "is none of"]);
    expect(status.operators.map((o) => o.value)).not.toContain(">");
  });

  it("types dates, numbers and text, name first", () => {
    const fields = filterFieldsOf("events");
    expect(fields[0].name).toBe("name");
    expect(fields.find((f) => f.name === "start_date")!.input).toBe("date");
    expect(fields.find((f) => f.name === "start_date")!.operators[0].label).toBe("on or after");
    expect(fields.find((f) => f.name === "id")!.input).toBe("number");
    expect(filterFieldsOf("webhook-groups").map((f) => f.name)).toEqual(["name", "id"]);
  });

  it("keeps an operator from the address that the short list leaves out", () => {
    const status = filterFieldsOf("events").find((f) => f.name === "status")!;
    expect(operatorsFor(status, ">").map((o) => o.value)).toContain(">");
    expect(operatorsFor(status, "=")).toBe(status.operators);
  });
});
