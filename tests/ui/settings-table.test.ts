// The one table of the settings pages (components/settings/settings-table.tsx) and the one
// breadcrumb (components/ui/breadcrumb.tsx), rendered as the pages render them.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SettingsTable } from "@/components/settings/settings-table";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { utilityClashes } from "./utility-clashes";

const columns = [{ label: "Kind" }, { label: "Credits", numeric: true }, { label: "Actions", hidden: true }];
const row = createElement("tr", null, createElement("td", null, "Page views"), createElement("td", null, "10"), createElement("td"));
const table = (props: Omit<Parameters<typeof SettingsTable>[0], "columns">) => renderToStaticMarkup(createElement(SettingsTable, { columns, ...props }, row));
const classesOf = (html: string, tag: string) => [...html.matchAll(new RegExp(`<${tag}\\b[^>]*class="([^"]*)"`, "g"))].map((match) => match[1]!);

describe("SettingsTable", () => {
  it("heads every column for assistive technology, a hidden label included, and captions the table", () => {
    const html = table({ fit: "stack", caption: "Credits by kind", testId: "t" });
    expect(html.match(/<th scope="col"/g)).toHaveLength(3);
    expect(html).toContain('<span class="sr-only">Actions</span>');
    expect(html).toMatch(/<caption class="sr-only">Credits by kind<\/caption>/);
    expect(html).toContain('data-testid="t"');
    expect(html).toContain("<td>Page views</td>");
  });

  it("stacks on a phone (header for screen readers only) or scrolls sideways in a box that takes the focus", () => {
    const stacked = table({ fit: "stack", caption: "c" });
    expect(stacked).toMatch(/^<table class="[^"]*max-sm:block/);
    expect(classesOf(stacked, "thead")[0]).toContain("max-sm:sr-only");
    const scrolled = renderToStaticMarkup(
      createElement(SettingsTable, { fit: "scroll", columns, caption: "c", showCaption: true, tableClassName: "min-w-[40rem]" }, row),
    );
    expect(scrolled).toMatch(/^<div tabindex="0" class="relative overflow-x-auto rounded-lg border/);
    expect(classesOf(scrolled, "table")[0]).toContain("min-w-[40rem]");
    expect(classesOf(scrolled, "caption")[0]).not.toContain("sr-only");
  });

  it("gives each header cell one value of each property, numbers aligned right", () => {
    for (const fit of ["stack", "scroll"] as const) {
      const headers = classesOf(table({ fit, caption: "c" }), "th");
      expect(headers).toHaveLength(3);
      for (const classes of headers) expect(utilityClashes(classes), classes).toEqual([]);
      expect(headers[1]).toContain("text-right");
    }
  });
});

describe("Breadcrumb", () => {
  it("links each page above this one, then names this one; the separators are not read out", () => {
    const html = renderToStaticMarkup(
      createElement(Breadcrumb, {
        trail: [
          { href: "/webhooks", label: "Webhooks" },
          { href: "/webhooks/12", label: 12 },
        ],
        current: "Edit",
      }),
    );
    expect(html).toMatch(/^<nav aria-label="Breadcrumb"/);
    expect([...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((match) => [match[1], match[2]])).toEqual([
      ["/webhooks", "Webhooks"],
      ["/webhooks/12", "12"],
    ]);
    expect(html.match(/<span aria-hidden="true">\/<\/span>/g)).toHaveLength(2);
    expect(html).toMatch(/<span>Edit<\/span><\/nav>$/);
  });
});
