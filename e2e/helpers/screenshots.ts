import { expect, type Page } from "@playwright/test";

/**
 * With E2E_SCREENSHOTS_DIR set: the page (or its top) at 1440 and 390 px wide, and nothing wider
 * than the screen. Without it, nothing: the suite's own run takes no pictures.
 */
export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR;
  if (!dir) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}
