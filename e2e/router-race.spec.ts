// The first render and a hash change: HashRouter reads the location while it renders and listens
// only from a layout effect; a hash that moves in between (a goto while the first screen renders,
// as robot-flow's did under CI load) must still open its page. The init script moves the hash at
// the exact moment the router subscribes (its popstate listener), before which no event reaches it.
import { expect, test } from '@playwright/test';

test('a hash change while the app mounts opens that page', async ({ page }) => {
  await page.addInitScript(() => {
    const add = window.addEventListener.bind(window);
    let moved = false;
    window.addEventListener = ((type: string, ...rest: unknown[]) => {
      if (type === 'popstate' && !moved && window.location.hash === '#/pages/agreement/privacy/privacy') {
        moved = true;
        history.replaceState(history.state, '', '#/pages/aboutus/aboutus');
      }
      return (add as (t: string, ...r: unknown[]) => void)(type, ...rest);
    }) as typeof window.addEventListener;
  });
  await page.goto('/#/pages/agreement/privacy/privacy');
  await expect(page).toHaveURL(/pages\/aboutus\/aboutus/);
  await expect(page.getByTestId('about-version')).toBeVisible();
  await expect(page.getByTestId('agreement-privacy')).toHaveCount(0);
});
