// The team on a phone (Japanese) and a desktop (English): a referrer copies the invite link from
// the team page (empty yet); a newcomer opens it in another browser, finds the code filled in on
// register and signs up; the referrer's team counts them, lists them, and a member of theirs
// (registered by the newcomer's code) shows one level further down on groupNext. A search with
// no match says so; the benefits page shows the VIP tiers and what is missing once the daily
// computation ran. No page is wider than the phone.
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { waitForCode } from './support/mailbox';
import { adjustWallet, apiLogin, PASSWORD, type Envelope, ops, register, setPayPassword, signIn } from './support/users';
import { holding } from './support/exclusive';

// The prices these flows pay are the console test's to change for a moment.
const test = holding('prices');

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/team-${step}.png`, fullPage: true });
}
async function fitsTheScreen(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

test('an invite link brings a newcomer into the team; the team and the next level list them', async ({ page, browser, request }, info) => {
  test.setTimeout(120_000);
  const locale = info.project.name === 'phone' ? 'ja-JP' : 'en-US';
  const referrer = `team.${info.project.name}.${Date.now()}@example.com`;
  await register(request, referrer);
  await signIn(page, request, referrer);
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  await page.goto('/#/pages/index/mine');
  await page.reload();

  // Mine → team: nobody yet; the invite link is there to share.
  await page.getByTestId('mine-team').click();
  await expect(page).toHaveURL(/pages\/group\/group/);
  await expect(page.getByTestId('team-direct')).toHaveText('0');
  await expect(page.getByTestId('team-empty')).toBeVisible();
  const code = (await page.getByTestId('team-invite-code').textContent())!.trim();
  const link = await page.getByTestId('team-copy-invite').getAttribute('data-invite-link');
  expect(link).toContain(`inviteCode=${code}`);
  await fitsTheScreen(page);
  await shot(page, info, '01-empty');

  // A newcomer opens the link in their own browser: register with the code filled in.
  const other = await browser.newContext({ baseURL: info.project.use.baseURL, viewport: page.viewportSize() ?? undefined });
  const newcomerPage = await other.newPage();
  const newcomer = `joiner.${info.project.name}.${Date.now()}@example.com`;
  await newcomerPage.goto(link!.replace(/^https?:\/\/[^/]+/, ''));
  await expect(newcomerPage.getByTestId('register-invite')).toHaveValue(code);
  await newcomerPage.getByTestId('register-email').fill(newcomer);
  const sentAt = Date.now();
  await newcomerPage.getByTestId('register-send-code').click();
  await newcomerPage.getByTestId('register-code').fill(await waitForCode(newcomer, sentAt - 1000));
  await newcomerPage.getByTestId('register-password').fill(PASSWORD);
  await newcomerPage.getByTestId('register-password-again').fill(PASSWORD);
  await newcomerPage.getByTestId('register-agree').check();
  await newcomerPage.getByTestId('register-country').selectOption('US');
  await newcomerPage.getByTestId('register-submit').click();
  await expect(newcomerPage).toHaveURL(/#\/pages\/login\/login/);
  await other.close();

  // Someone the newcomer invites (through the API): the referrer's team, one level further down.
  const newcomerCode = await codeOf(request, newcomer);
  await register(request, `deeper.${info.project.name}.${Date.now()}@example.com`, newcomerCode);

  await page.reload();
  await expect(page.getByTestId('team-direct')).toHaveText('1');
  await expect(page.getByTestId('team-size')).toHaveText('2');
  const row = page.getByTestId('team-member');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(newcomerCode);
  await expect(row).toHaveAttribute('data-active', 'false');
  await fitsTheScreen(page);
  await shot(page, info, '02-one-referral');

  // Their own team on the next page.
  await row.getByTestId('team-member-open').click();
  await expect(page).toHaveURL(/pages\/group\/groupNext\?parent=\d+/);
  await expect(page.getByTestId('team-depth')).toBeVisible();
  await expect(page.getByTestId('team-member')).toHaveCount(1);
  await expect(page.getByTestId('team-member-open')).toHaveCount(0);
  await fitsTheScreen(page);
  await shot(page, info, '03-next-level');

  // A search that matches nobody says so.
  await page.getByTestId('team-search').fill('nobody-here');
  await page.getByTestId('team-search-go').click();
  await expect(page.getByTestId('team-empty')).toBeVisible();
  await expect(page.getByTestId('team-member')).toHaveCount(0);

  // VIP progress on the benefits page, once the daily computation ran: no tier yet, and VIP1
  // says an active direct referral is missing (the newcomer runs no robot).
  ops('vip:compute');
  await page.goto('/#/pages/equity/index');
  await expect(page.getByTestId('vip-progress')).toHaveAttribute('data-level', 'none');
  await expect(page.getByTestId('vip-tier')).toHaveCount(3);
  const vip1 = page.getByTestId('vip-tier').first();
  await expect(vip1).toHaveAttribute('data-reached', 'false');
  await expect(vip1.locator('[data-measure=activeDirect]')).toHaveAttribute('data-met', 'false');
  await expect(page.getByTestId('vip-window')).not.toBeEmpty();
  await fitsTheScreen(page);
  await shot(page, info, '04-vip-progress');
});

test('a referral pays for benefits; after settlement the referrer sees the rebate on the team page and in the wallet, and moves it to the balance', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const locale = info.project.name === 'phone' ? 'th-TH' : 'en-US';
  const stamp = `${info.project.name}.${Date.now()}`;
  const referrer = `rebater.${stamp}@example.com`;
  await register(request, referrer);
  const payer = `payer.${stamp}@example.com`;
  await register(request, payer, await codeOf(request, referrer));

  // The referral pays Lightning: the unlock (100), then a crypto seat pack for a month (10).
  adjustWallet(payer, '200', 'balance', `rebate-e2e-${stamp}`);
  await setPayPassword(request, payer, '246810');
  const headers = await apiLogin(request, payer);
  const call = async (path: string, data: Record<string, unknown>) => {
    const res = (await (await request.post(path, { headers, data })).json()) as Envelope<unknown>;
    expect(res.code, res.msg).toBe('00000');
  };
  await call('/user/api/equity/unlock', { paidPwd: '246810', idempotencyKey: `unlock-${stamp}` });
  await call('/user/api/equity/agreements/accept', { agreement: 'monthEquity', version: '2026-11-27' });
  await call('/user/api/equity/buy', { kind: 'seat', market: 'crypto', quantity: 1, months: 1, autoRenew: false, paidPwd: '246810', idempotencyKey: `pack-${stamp}` });

  await signIn(page, request, referrer);
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  await page.goto('/#/pages/group/group');
  await page.reload();
  // (Not asserted empty before: the other project's run may settle today's payments at any time.)
  await expect(page.getByTestId('team-rebates')).toBeVisible();

  // The daily settlement (run by the operator for today): the direct referrer, not VIP, earns 10 %.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  expect(ops('rebates:settle', '--date', today)).toMatch(/payment\(s\) settled/);
  await page.reload();
  await expect(page.getByTestId('rebate-total')).toHaveText('11.00');
  await expect(page.getByTestId('rebate-today')).toHaveText('11.00');
  await expect(page.getByTestId('rebate-row')).toHaveCount(2);
  await expect(page.getByTestId('rebate-amount').first()).toHaveText('+1.00');
  await expect(page.getByTestId('rebate-row').first()).toHaveAttribute('data-kind', 'differential');
  const download = page.waitForEvent('download');
  await page.getByTestId('rebate-csv').click();
  expect((await download).suggestedFilename()).toBe('rebates.csv');
  await fitsTheScreen(page);
  await shot(page, info, '05-rebates');

  // The wallet: the rebate lines name their payment; the whole rebate moves to the balance wallet.
  await page.goto('/#/pages/wallet/wallet');
  await expect(page.getByTestId('wallet-rebate-amount')).toHaveText('11.00');
  const rebateLine = page.locator('[data-testid=wallet-record][data-type=rebate]').first();
  await expect(rebateLine.getByTestId('record-memo')).toContainText('#');
  await page.getByTestId('wallet-transfer').click();
  await page.getByTestId('transfer-all').click();
  await page.getByTestId('transfer-submit').click();
  await expect(page.getByTestId('wallet-rebate-amount')).toHaveText('0.00');
  await expect(page.getByTestId('wallet-balance-amount')).toHaveText('11.00');
  await fitsTheScreen(page);
  await shot(page, info, '06-rebate-moved');

  // The rules page: the rates in force and the worked example computed from them (40.2 in all).
  await page.goto('/#/pages/group/group');
  await page.getByTestId('team-explain').click();
  await expect(page).toHaveURL(/pages\/group\/explain\/explain/);
  await expect(page.locator('[data-testid=explain-rate][data-level=VIP1]')).toContainText('20 %');
  await expect(page.getByTestId('explain-example-row')).toHaveCount(4);
  await expect(page.getByTestId('explain-example-total')).toHaveText('40.20');
  await expect(page.getByTestId('explain-tier')).toHaveCount(3);
  await fitsTheScreen(page);
  await shot(page, info, '07-rules');

  // The leaderboard of rebates as of tomorrow (today in the window): the referrer's own row, named.
  const tomorrow = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + 86_400_000));
  ops('rankings:compute', '--date', tomorrow);
  await page.goBack();
  await page.getByTestId('team-ranking').click();
  await expect(page).toHaveURL(/pages\/index\/rankingList\/rankingList/);
  await page.getByTestId('ranking-by-rebate').click();
  await expect(page.getByTestId('ranking-list')).toHaveAttribute('data-by', 'rebate');
  const mine = page.locator('[data-testid=ranking-row][data-self=true]');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('11.00');
  await fitsTheScreen(page);
  await shot(page, info, '08-ranking');
});

/** The invite code of a registered user, read from their profile. */
async function codeOf(request: APIRequestContext, mail: string): Promise<string> {
  const headers = await apiLogin(request, mail);
  const res = (await (await request.get('/user/api/info', { headers })).json()) as { data: { userCode: string } };
  return res.data.userCode;
}
