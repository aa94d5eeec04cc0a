// Layout checks the specs share.
import { expect, type Page } from '@playwright/test';

/** The page scrolls up and down only: nothing sticks out sideways (a 360 px phone included). */
export async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}
