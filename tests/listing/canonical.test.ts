import { describe, expect, it } from "vitest";
import { canonicalListingQuery, listingAt } from "@/lib/listing/canonical";

const canonical = (resource: "webhook-groups" | "events", search: string) => canonicalListingQuery(resource, new URLSearchParams(search));

describe("a listing's canonical address", () => {
  it("shortens what the options form sends: every field, the defaults spelled out", () => {
    // What the GET form sends when a person adds a name filter and Applies.
    const submitted = "fields=id&fields=name&fields=headers&fields=notification_emails&filter=name%3D*contains*sync&searchCondition=and&sort=&per-page=20&page=1&ids=";
    expect(canonical("webhook-groups", submitted)).toBe("filter=name%3D*contains*sync");
    expect(canonical("events", "fields=id,name,status,start_date,end_date,timezone&per-page=50&ids=9%0A3")).toBe("ids=9%2C3&per-page=50");
  });

  it("is null for an address that is canonical already, so that it is never redirected twice", () => {
    expect(canonical("webhook-groups", "filter=name%3D*contains*sync")).toBeNull();
    expect(canonical("webhook-groups", "sort=-id&per-page=200&page=2")).toBeNull();
    // The canonical form of a query is itself canonical.
    const once = canonical("events", "per-page=50&ids=9%0A3&fields=id,name,status,start_date,end_date,timezone")!;
    expect(canonical("events", once)).toBeNull();
  });

  it("says 'every option at its default' as view=none (a bare address would open the default view)", () => {
    expect(canonical("webhook-groups", "per-page=20&page=1&searchCondition=and")).toBe("view=none");
  });

  it("leaves alone an address with something ignored (the page's notice would be lost) and one without options", () => {
    expect(canonical("webhook-groups", "per-page=7&fields=id&fields=name")).toBeNull();
    expect(canonical("webhook-groups", "ids=abc&per-page=20")).toBeNull();
    expect(canonical("webhook-groups", "")).toBeNull();
    expect(canonical("webhook-groups", "view=abc123")).toBeNull();
  });

  it("knows the listing pages by their exact path", () => {
    expect(listingAt("/webhook-groups")).toBe("webhook-groups");
    expect(listingAt("/events")).toBe("events");
    expect(listingAt("/webhook-groups/12")).toBeNull();
    expect(listingAt("/views")).toBeNull();
  });
});
