// The operator console on a phone and a desktop: an operator added with `npm run ops` signs in
// with the password and the authenticator's code, sees the dashboard, finds a user by e-mail,
// freezes them (the user's session ends and sign-in is refused), and finds the freeze in the audit
// log. The users' app around it (tab bar, side menu) is not there. Two operators share the big
// money: a credit and a withdrawal above the two-person amount each wait for the second one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { operatorPage, totp } from './support/console';
import { apiLogin, bookAddress, login, ops, PASSWORD, register, setPayPassword } from './support/users';


test('an operator signs in with TOTP, freezes a user and finds it in the audit log', async ({ page, request, browser }, info) => {
  const stamp = `${info.project.name}.${Date.now()}`;
  const operator = `op.${stamp}@lightning-quant.example`;
  const out = ops('operator:add', operator);
  const password = /password:\s+(\S+)/.exec(out)![1];
  const secret = /TOTP secret:\s+(\S+)/.exec(out)![1];
  const userMail = `frozen.${stamp}@example.com`;
  await register(request, userMail);
  // The user is signed in elsewhere: freezing ends that session.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await login(userPage, userMail);

  await page.goto('/#/console');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await expect(page.getByTestId('console-login')).toBeVisible();
  await expect(page.locator('.tabbar, .sidemenu')).toHaveCount(0);
  await page.getByTestId('console-mail').fill(operator);
  await page.getByTestId('console-password').fill(password);
  await page.getByTestId('console-login-submit').click();
  await expect(page.getByTestId('console-second-factor')).toBeVisible();
  await page.getByTestId('console-code').fill('000000');
  await page.getByTestId('console-code-submit').click();
  await expect(page.getByTestId('code-error')).toBeVisible();
  await page.getByTestId('console-code').fill(totp(operator, secret));
  await page.getByTestId('console-code-submit').click();

  await expect(page.getByTestId('dash-users-value')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('console-operator')).toHaveText(operator);
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-dashboard.png`, fullPage: true });

  await page.getByTestId('console-nav-users').click();
  await page.getByTestId('users-search').fill(userMail);
  const row = page.getByTestId('user-row');
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('users-table')).toHaveAttribute('data-total', '1');
  await row.getByTestId('user-manage').click();
  const panel = page.getByTestId('user-panel');
  await expect(panel.getByTestId('panel-state')).toHaveAttribute('data-frozen', 'false');
  await panel.getByTestId('panel-tab-freeze').click();
  await panel.getByTestId('freeze-submit').click();
  await expect(panel.getByTestId('reason-error')).toBeVisible();
  await panel.getByTestId('action-reason').fill('chargeback under review');
  await panel.getByTestId('freeze-submit').click();
  await expect(panel.getByTestId('panel-state')).toHaveAttribute('data-frozen', 'true');
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-user-panel.png` });
  await panel.getByTestId('sheet-close').click();
  await expect(row.getByTestId('user-frozen')).toBeVisible();

  // The user's session has ended, and signing in again is refused with the reason.
  const info401 = await userPage.evaluate(async () => (await fetch('/user/api/info', { headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` } })).status);
  expect(info401).toBe(401);
  const again = await request.post('/user/api/login', { data: { userMail, password: PASSWORD } });
  expect(((await again.json()) as { code: string }).code).toBe('A0217');
  await userContext.close();

  await page.getByTestId('console-nav-audit').click();
  await page.getByTestId('audit-actor').fill(operator);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'users.freeze' })).toHaveCount(1);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'console.secondFactor' }).first()).toBeVisible();
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-audit.png`, fullPage: true });
  // Nothing on the page is wider than the screen: a table scrolls inside its own box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

// Above any two-person amount a test run sets (fit.spec raises it to 2,000,000 for a moment).
const BIG_CREDIT = '2000100';
const BIG_WITHDRAWAL = '2000050';
const TRON_ADDRESS = 'TLEaY8XoqpBmndLsjcfThgdKLN1ssNuUcF';

test('two operators: a big credit and a big withdrawal each take effect at the second approval', { tag: '@desktop' }, async ({ request, browser }, info) => {
  const stamp = `${info.project.name}.${Date.now()}`;
  const [first, second] = [`first.${stamp}@lightning-quant.example`, `second.${stamp}@lightning-quant.example`];
  const a = await operatorPage(browser, first);
  const b = await operatorPage(browser, second);
  const userMail = `bigmoney.${stamp}@example.com`;
  await register(request, userMail);
  await setPayPassword(request, userMail, '123456');

  // The first operator credits the user: it waits for a second operator.
  await a.getByTestId('console-nav-users').click();
  await a.getByTestId('users-search').fill(userMail);
  await expect(a.getByTestId('users-table')).toHaveAttribute('data-total', '1');
  await a.getByTestId('user-row').getByTestId('user-manage').click();
  const panel = a.getByTestId('user-panel');
  await panel.getByTestId('panel-tab-adjust').click();
  await panel.getByTestId('adjust-amount').fill(BIG_CREDIT);
  await panel.getByTestId('action-reason').fill('OTC deposit received by bank transfer');
  await panel.getByTestId('adjust-submit').click();
  await expect(a.getByTestId('toast').filter({ hasText: /waits for another operator/ })).toBeVisible();
  await expect(panel.getByTestId('panel-balance')).toHaveText('0.00');
  await panel.getByTestId('sheet-close').click();
  await a.getByTestId('console-nav-approvals').click();
  const mine = a.getByTestId('approval-row').filter({ hasText: userMail });
  await expect(mine.getByTestId('approval-mine')).toBeVisible();
  await expect(mine.getByTestId('approval-approve')).toHaveCount(0);

  // The second operator approves it: the money moves.
  await b.getByTestId('console-nav-approvals').click();
  const theirs = b.getByTestId('approval-row').filter({ hasText: userMail });
  await expect(theirs).toContainText('2,000,100.00');
  await b.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-approvals.png`, fullPage: true });
  await theirs.getByTestId('approval-approve').click();
  // Confirmed on a sheet that shows what it approves.
  const confirm = b.getByTestId('approval-approve-sheet');
  await expect(confirm.getByTestId('approval-what')).toContainText('Credit');
  await confirm.getByTestId('approval-approve-submit').click();
  await expect(theirs).toHaveCount(0);
  const headers = await apiLogin(request, userMail);
  const wallet = (await (await request.get('/user/api/wallet/info', { headers })).json()) as { data: { balanceWallet: string } };
  expect(wallet.data.balanceWallet).toBe('2000100.000000');

  // The user withdraws most of it; the first approval waits, the second lets it through.
  await bookAddress(request, headers, userMail, 'TRC20', TRON_ADDRESS);
  const created = await request.post('/user/api/withdraw/create', { headers, data: { network: 'TRC20', address: TRON_ADDRESS, amount: BIG_WITHDRAWAL, paidPwd: '123456', idempotencyKey: `e2e-big-${stamp}` } });
  const id = ((await created.json()) as { data: { id: number } }).data.id;
  for (const [page, step] of [[a, 'first'], [b, 'second']] as const) {
    await page.getByTestId('console-nav-withdrawals').click();
    await page.getByTestId('withdrawals-search').fill(String(id));
    const row = page.getByTestId('withdrawal-row');
    await expect(page.getByTestId('withdrawals-table')).toHaveAttribute('data-total', '1');
    await expect(row).toHaveCount(1);
    await row.getByTestId('withdrawal-review').click();
    const review = page.getByTestId('withdrawal-panel');
    await review.getByTestId('withdrawal-approve').click();
    if (step === 'first') {
      await expect(review.getByTestId('withdrawal-mine')).toBeVisible();
      await expect(review.getByTestId('withdrawal-state')).toHaveAttribute('data-state', 'pendingReview');
    } else {
      await expect(review.getByTestId('withdrawal-state')).toHaveAttribute('data-state', 'processing');
      await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-withdrawal.png` });
    }
    await review.getByTestId('sheet-close').click();
  }

  // Both approvals are in the audit log, each under its operator.
  await a.getByTestId('console-nav-audit').click();
  await a.getByTestId('audit-objectId').fill(String(id));
  await a.getByTestId('audit-action').first().waitFor();
  await expect(a.getByTestId('audit-action').filter({ hasText: 'withdrawals.approve' })).toHaveCount(2);
  for (const page of [a, b]) {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.context().close();
  }
});

const WEB_DIST = join(import.meta.dirname, '../apps/web/dist');
/** Strings only the console's code holds: its API paths, its test ids and its texts. */
const CONSOLE_MARKERS = ['withdrawals/approve', 'approvals/reject', 'users/freeze', 'settings/money', 'console-nav-', 'Turn down'];

test('the users’ app holds no console code: one lazy chunk, never precached nor fetched by a user page', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'the build output is the same for both');
  const assets = readdirSync(join(WEB_DIST, 'assets')).filter((f) => f.endsWith('.js'));
  const consoleChunks = assets.filter((f) => f.startsWith('ConsoleApp-'));
  expect(consoleChunks).toHaveLength(1);
  const inConsole = readFileSync(join(WEB_DIST, 'assets', consoleChunks[0]), 'utf8');
  for (const marker of CONSOLE_MARKERS) expect(inConsole, `the console chunk has ${marker}`).toContain(marker);
  const leaks = assets
    .filter((f) => !consoleChunks.includes(f))
    .flatMap((f) => {
      const text = readFileSync(join(WEB_DIST, 'assets', f), 'utf8');
      return CONSOLE_MARKERS.filter((m) => text.includes(m)).map((m) => `${f}: ${m}`);
    });
  expect(leaks).toEqual([]);
  // Not preloaded by the page, not precached by the service worker.
  expect(readFileSync(join(WEB_DIST, 'index.html'), 'utf8')).not.toContain('ConsoleApp');
  const worker = readdirSync(WEB_DIST).filter((f) => /^(sw|workbox-[^.]+)\.js$/.test(f)).map((f) => readFileSync(join(WEB_DIST, f), 'utf8')).join('\n');
  expect(worker).toContain('precache');
  expect(worker).not.toContain('ConsoleApp');
  // A user's page never fetches it.
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await page.goto('/#/pages/login/login');
  await page.waitForLoadState('networkidle');
  expect(fetched.filter((u) => u.includes('/assets/')).length).toBeGreaterThan(0);
  expect(fetched.filter((u) => u.includes('ConsoleApp'))).toEqual([]);
});
