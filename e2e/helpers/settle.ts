import type { Page } from "@playwright/test";

/**
 * Waits for the page's finite animations and transitions to end. A colour mid-transition is no
 * colour anyone reads, but axe measures it: a button fading from its disabled shade after a form
 * answered failed color-contrast once (e2e/teams.spec.ts). Endless ones (a skeleton's pulse, a
 * spinner) are left running.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
