import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { settleAnimations } from "./settle";

/**
 * axe over the page (or, with `include`, a part of it) finds no serious or critical violation.
 * `label` says which page and state the failure message is about.
 */
export async function expectNoSeriousViolations(page: Page, options: { include?: string; label?: string } = {}): Promise<void> {
  await settleAnimations(page);
  // Only violations are read: axe then computes the selectors and HTML of no passing or
  // inapplicable node (its API's "Performance" section), the larger part of a long list's analysis.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  if (options.include) builder.include(options.include);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    options.label ?? `axe on ${page.url()}`,
  ).toEqual([]);
}
