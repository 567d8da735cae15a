import { describe, expect, it } from "vitest";
import { csvCell, csvLine, parseCsv } from "@/lib/csv";
import { formatEventLocal, formatUtcInZone } from "@/lib/listing/format";

describe("CSV", () => {
  it("quotes what needs quoting and round-trips", () => {
    const rows = [
      ["id", "name", "headers"],
      [7, 'CRM "sync", daily\nsecond line', [{ key: "X-Api-Key", value: "k,1" }]],
      [8, "Ünïcødé 🎉", null],
    ];
    const text = rows.map(csvLine).join("");
    expect(parseCsv(text)).toEqual([
      ["id", "name", "headers"],
      ["7", 'CRM "sync", daily\nsecond line', '[{"key":"X-Api-Key","value":"k,1"}]'],
      ["8", "Ünïcødé 🎉", ""],
    ]);
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe("-5");
  });

  it("defuses a formula behind white space, and cells that start with a tab or a carriage return", () => {
    for (const lead of [" ", "  ", "\u00a0", "\t", "\n", "\r\n", " \u00a0\t", "\u2003", "\u3000", "\ufeff"]) {
      for (const sign of ["=", "+", "-", "@"]) {
        const value = `${lead}${sign}HYPERLINK("http://evil.example","x")`;
        const cell = csvCell(value);
        // Written defused (quoted where the value needs quotes), and read back with its apostrophe.
        expect(parseCsv(`${cell}\r\n`)[0][0], JSON.stringify(value)).toBe(`'${value}`);
      }
    }
    for (const value of ["\tplain", "\rplain", "\uff1d1+1", "\uff0bcmd"]) expect(parseCsv(`${csvCell(value)}\r\n`)[0][0], JSON.stringify(value)).toBe(`'${value}`);
    // Plain text with an inner sign, and signs after other text, stay as they are.
    for (const value of ["a=b", "Summit - Paris", "x@example.test", " plain", "\u00a0plain", "2026-01-01"]) expect(csvCell(value)).toBe(value);
  });
});

describe("event dates in the event's time zone", () => {
  it("writes local start times with the zone's name", () => {
    expect(formatEventLocal("2026-07-01", "09:30:00", "Europe/Paris")).toBe("2026-07-01 09:30 GMT+2");
    expect(formatEventLocal("2026-01-15", "09:30:00", "America/New_York")).toBe("2026-01-15 09:30 EST");
    expect(formatEventLocal("2026-01-15", null, "Not/AZone")).toBe("2026-01-15");
  });

  it("converts UTC timestamps into the event's zone", () => {
    expect(formatUtcInZone("2026-07-01 22:30:00", "Europe/Paris")).toBe("2026-07-02 00:30 GMT+2");
    expect(formatUtcInZone("2026-01-15 12:00:00", "America/New_York")).toBe("2026-01-15 07:00 EST");
    expect(formatUtcInZone("2026-01-15 12:00:00", undefined)).toBe("2026-01-15 12:00 UTC");
  });
});
