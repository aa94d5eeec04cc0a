// The full-screen K-line of a backtest with thousands of trade events, on a phone and a desktop:
// - a wheel zoom leaves no old frames in the canvases: what is on screen equals a fresh render of
//   the same view (the canvases resized, which clears them, and drawn again);
// - zoomed out, bars with several trades are grouped and every event is counted; zooming in loads
//   finer candles for what is on screen until each trade has its own marker; "fit" goes back.
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { denseBacktest } from './support/backtests';
import { waitForSymbol } from './support/market';
import { grantVip, register, signIn } from './support/users';

const MINUTE = 60_000;
test.use({ actionTimeout: 30_000 });

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/kline-${step}.png` });
}

/** The part of a canvas read here (the e2e project has no DOM types). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } };
}

/** Pixels of every canvas of the chart, kept in the page under `name`. */
const grabCanvases = (page: Page, name: string) =>
  page.evaluate((key) => {
    const store = ((window as unknown as { __kline?: Record<string, number[][]> }).__kline ??= {});
    const canvases = Array.from(document.querySelectorAll('[data-testid="kline-chart"] canvas')) as unknown as Canvas[];
    store[key] = canvases.map((c) => Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data));
  }, name);

/** Share of pixels that differ (any channel by more than 24) between two grabs. */
const differingShare = (page: Page, a: string, b: string) =>
  page.evaluate(
    ([x, y]) => {
      const store = (window as unknown as { __kline: Record<string, number[][]> }).__kline;
      let differing = 0;
      let total = 0;
      store[x].forEach((first, i) => {
        const second = store[y][i];
        if (!second || second.length !== first.length) {
          differing += first.length / 4;
          total += first.length / 4;
          return;
        }
        for (let p = 0; p < first.length; p += 4) {
          total++;
          if (Math.abs(first[p] - second[p]) > 24 || Math.abs(first[p + 1] - second[p + 1]) > 24 || Math.abs(first[p + 2] - second[p + 2]) > 24 || Math.abs(first[p + 3] - second[p + 3]) > 24) differing++;
        }
      });
      return total ? differing / total : 1;
    },
    [a, b],
  );

/** Waits until the chart has settled: no K-line request in flight and the view's answer shown. */
async function settled(page: Page): Promise<void> {
  await page.waitForTimeout(600); // the chart reports a view 250 ms after it stops moving
  await expect(page.locator('.bt-kline-loading')).toHaveCount(0, { timeout: 30_000 });
}

const INTERVAL_ORDER = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'];

test('a dense K-line zooms without smearing, groups markers when zoomed out and shows each trade when zoomed in', { tag: '@phone' }, async ({ page, request }, info) => {
  test.setTimeout(12 * MINUTE);
  const mail = `kline.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  grantVip(mail);
  await waitForSymbol(request, 'binance', 'ETHUSDT');
  const id = await denseBacktest(request, mail);
  await signIn(page, request, mail);
  await page.goto(`/#/pages/backtest/resultDateil/fullScreenKline/fullScreenKline?id=${id}`);

  const chart = page.getByTestId('kline-chart');
  const infoLine = page.getByTestId('kline-info');
  const title = page.getByTestId('kline-title');
  await expect(chart.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await settled(page);
  // Zoomed out: thousands of events, grouped per bar, all counted.
  const events = Number(await infoLine.getAttribute('data-events'));
  expect(events).toBeGreaterThan(800);
  await expect(infoLine).toHaveAttribute('data-grouped', '1');
  const wholeInterval = (await title.getAttribute('data-interval')) ?? '';
  expect(INTERVAL_ORDER).toContain(wholeInterval);
  await shot(page, info, '01-whole');

  // A wheel zoom, then the same view drawn afresh: the canvases must hold the same picture.
  const box = (await chart.boundingBox())!;
  // Its trades are in the first half of the range: zoom there.
  const at = { x: box.x + box.width * 0.2, y: box.y + box.height * 0.35 };
  await page.mouse.move(at.x, at.y);
  for (let i = 0; i < 4; i++) {
    await page.mouse.wheel(0, -240);
    await page.waitForTimeout(80);
  }
  await settled(page);
  await page.mouse.move(1, 1); // no crosshair in either picture
  await page.waitForTimeout(200);
  await grabCanvases(page, 'zoomed');
  await shot(page, info, '02-zoomed');
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: size.height + 2 });
  await page.waitForTimeout(300);
  await page.setViewportSize(size);
  await page.waitForTimeout(500);
  await grabCanvases(page, 'fresh');
  expect(await differingShare(page, 'zoomed', 'fresh')).toBeLessThan(0.002);

  // Zoom in until each trade has its own marker; each step loads finer candles for the view.
  const intervals = [wholeInterval];
  for (let step = 0; step < 30 && (await infoLine.getAttribute('data-grouped')) === '1'; step++) {
    await page.mouse.move(at.x, at.y);
    for (let i = 0; i < 3; i++) {
      await page.mouse.wheel(0, -300);
      await page.waitForTimeout(60);
    }
    await settled(page);
    const now = (await title.getAttribute('data-interval')) ?? '';
    if (now !== intervals[intervals.length - 1]) intervals.push(now);
  }
  await expect(infoLine).toHaveAttribute('data-grouped', '0');
  expect(Number(await infoLine.getAttribute('data-events'))).toBeGreaterThan(0);
  expect(Number(await infoLine.getAttribute('data-events'))).toBeLessThanOrEqual(800);
  expect(intervals.length).toBeGreaterThan(1);
  // Finer at every change, never back.
  const order = intervals.map((x) => INTERVAL_ORDER.indexOf(x));
  expect(order).toEqual([...order].sort((a, b) => b - a));
  await page.mouse.move(at.x, at.y);
  await shot(page, info, '03-exact');

  // "Fit" brings the whole backtest back, grouped, with every event counted again.
  await page.getByTestId('kline-fit').click();
  await settled(page);
  await expect(title).toHaveAttribute('data-interval', wholeInterval);
  await expect(infoLine).toHaveAttribute('data-grouped', '1');
  await expect(infoLine).toHaveAttribute('data-events', String(events));
  await shot(page, info, '04-fit');
});
