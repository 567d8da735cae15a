import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Waits for the page's finite animations and transitions to end. A colour mid-transition is no
 * colour anyone reads, but axe measures it: a button fading from its disabled shade after a form
 * answered failed color-contrast once (e2e/teams.spec.ts). Endless ones (a skeleton's pulse, a
 * spinner) are left running.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * axe over the page (or, with `include`, a part of it) finds no serious or critical violation.
 * `label` says which page and state the failure message is about.
 */
export async function expectNoSeriousViolations(page: Page, options: { include?: string; label?: string } = {}): Promise<void> {
  await settleAnimations(page);
  const builder = new AxeBuilder({ page });
  if (options.include) builder.include(options.include);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    options.label ?? `axe on ${page.url()}`,
  ).toEqual([]);
}
