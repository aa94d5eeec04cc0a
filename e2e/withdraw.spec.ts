// The withdrawal form on a phone and a desktop: reached from the wallet, it shows the balance, the
// fee and what arrives as the amount is typed; bad input is refused under its field — by the form
// (below 10, above the balance with the fee, no address picked, a short payment password) and by
// the server (an address with a broken checksum, under the address field of the address book's
// "add" sheet) — and a user without a payment password is told to set one. Withdrawals go only to
// addresses of the book, added with an e-mail code (usable at once on this stand:
// WITHDRAW_NEW_ADDRESS_HOURS=0), and one can be removed.
// The whole way in two languages: USDT deposited on the local chain, a withdrawal asked for in the
// form, approved with `npm run ops -- withdraw:approve`, paid by the hot wallet (the e2e server runs
// WITHDRAW_PAYOUT=hot-wallet), confirmed, and shown completed in the detail, the records and the wallet.
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Page, TestInfo } from '@playwright/test';
import { expect, holding } from './support/exclusive';
import { attachTestToken } from '../apps/server/test/local-chain';
import { chain, mine } from './support/chain';
import { waitForCode } from './support/mailbox';
import { ASK_MS, drivePolls, untilShown } from './support/polls';
import { adjustWallet, apiLogin, bookAddress, codeFromScreen, ops, register, setPayPassword, signIn } from './support/users';

const test = holding('local-chain');

const USDT = 10n ** 18n;
async function usdtOf(address: Address): Promise<bigint> {
  const { url, token } = chain();
  return createPublicClient({ transport: http(url), cacheTime: 0 }).readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}
async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/withdraw-${step}.png`, fullPage: true });
}

test('the withdrawal form checks every field and says what is wrong where', { tag: '@phone' }, async ({ page, request }, info) => {
  const mail = `withdraw.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  adjustWallet(mail, '50', 'balance', `e2e-wd-${mail}`);
  await signIn(page, request, mail);
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.goto('/#/pages/wallet/wallet');
  await page.reload();
  await page.getByTestId('wallet-withdraw').click();
  await expect(page).toHaveURL(/pages\/withdraw\/withdraw/);
  await expect(page.getByTestId('wd-available')).toHaveText('Balance wallet: 50.00');
  await expect(page.getByTestId('wd-fee')).toHaveText('3.00');
  // What the user's level may withdraw without a review, and what is left of it.
  await expect(page.getByTestId('wd-limits')).toContainText('Left without review: 2,000.00 of 2,000.00 in 24 hours, 20,000.00 of 20,000.00 in 30 days');

  // No payment password yet: said before anything is typed, with the way to set one; back here after.
  await expect(page.getByTestId('wd-no-paypwd')).toContainText('Set a payment password first');
  await expect(page.getByTestId('wd-submit')).toBeDisabled();
  await page.getByTestId('wd-set-paypwd').click();
  await expect(page.getByTestId('paypwd-form')).toHaveAttribute('data-mode', 'set');
  await page.waitForTimeout(2_000); // one code per address per MAIL_CODE_INTERVAL_SECONDS (register sent one)
  const sentAt = Date.now();
  await page.getByTestId('paypwd-send-code').click();
  await page.getByTestId('paypwd-code').fill(await waitForCode(mail, sentAt - 1000));
  await page.getByTestId('paypwd-new').fill('135790');
  await page.getByTestId('paypwd-again').fill('135790');
  await page.getByTestId('paypwd-submit').click();
  await expect(page).toHaveURL(/pages\/withdraw\/withdraw/);
  await expect(page.getByTestId('wd-no-paypwd')).toHaveCount(0);
  await expect(page.getByTestId('wd-submit')).toBeEnabled();

  await page.getByTestId('wd-amount').fill('9');
  await page.getByTestId('wd-submit').click();
  await expect(page.getByTestId('wd-amount-error')).toHaveText('The smallest withdrawal is 10 Lightning');
  await expect(page.getByTestId('wd-address-error')).toHaveText('Choose an address from your address book');
  await expect(page.getByTestId('wd-paidPwd-error')).toHaveText('The payment password has 6 digits');

  await page.getByTestId('wd-all').click();
  await expect(page.getByTestId('wd-amount')).toHaveValue('47');
  await expect(page.getByTestId('wd-received')).toHaveText('47.00');
  await expect(page.getByTestId('wd-total')).toHaveText('50.00');
  await page.getByTestId('wd-amount').fill('47.5');
  await page.getByTestId('wd-submit').click();
  await expect(page.getByTestId('wd-amount-error')).toHaveText('At most 47.00 with the fee');

  await page.getByTestId('wd-amount').fill('20');
  // The address book is empty: an address is added first, with an e-mail code.
  await expect(page.getByTestId('wd-book-empty')).toBeVisible();
  await page.getByTestId('wd-add-address').click();
  await expect(page.getByTestId('wd-add-sheet')).toBeVisible();
  await page.getByTestId('wd-new-submit').click();
  await expect(page.getByTestId('newAddress-error')).toHaveText('Enter the address to send to');
  await expect(page.getByTestId('newProof-error')).toHaveText('Enter the verification code');
  // A mixed-case address whose EIP-55 checksum is broken (the last letter's case changed).
  await page.getByTestId('wd-new-address').fill('0x70997970C51812dc3A010C7d01b50e0d17dc79c8');
  await page.getByTestId('wd-new-label').fill('My wallet');
  await page.getByTestId('wd-new-proof').fill(await codeFromScreen(page, mail, 'wd-new-proof-send'));
  await page.getByTestId('wd-new-submit').click();
  await expect(page.getByTestId('newAddress-error')).toHaveText('Not a valid BEP20 address');
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/withdraw-address-refused.png`, fullPage: true });
  // The refused address did not use the code up.
  await page.getByTestId('wd-new-address').fill('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  await page.getByTestId('wd-new-submit').click();
  await expect(page.getByTestId('wd-add-sheet')).toHaveCount(0);
  const entry = page.getByTestId('wd-book-entry');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('My wallet');
  await expect(entry).toHaveAttribute('aria-checked', 'true');
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/withdraw-book.png`, fullPage: true });

  await page.getByTestId('wd-paidPwd').fill('123456');
  await page.getByTestId('wd-submit').click();
  await expect(page.getByTestId('wd-paidPwd-error')).toContainText('The payment password is wrong');
  await page.getByTestId('wd-records-link').click();
  await expect(page.getByTestId('wd-empty')).toBeVisible();
  await page.goBack();

  // Sent with the right password, it waits for review: held, and its owner may cancel it.
  await page.getByTestId('wd-amount').fill('20');
  await page.getByTestId('wd-book-entry').click();
  await page.getByTestId('wd-paidPwd').fill('135790');
  await page.getByTestId('wd-submit').click();
  await expect(page.getByTestId('withdraw-detail-page')).toHaveAttribute('data-state', 'pendingReview');
  await expect(page.getByTestId('wd-detail-total')).toHaveText('23.00');
  await page.getByTestId('wd-cancel').click();
  await expect(page.getByTestId('wd-cancel-sheet')).toContainText('23.00');
  await page.getByTestId('wd-cancel-ok').click();
  await expect(page.getByTestId('withdraw-detail-page')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('wd-state')).toHaveText('Cancelled');
  await expect(page.getByTestId('wd-cancel')).toHaveCount(0);
  // What happened to the money: held, then released, net 0 — on the detail and in the records.
  await expect(page.getByTestId('wd-detail-total')).toHaveText('Held 23.00, then released: net 0.00');
  await page.goto('/#/pages/wallet/wallet');
  await expect(page.getByTestId('wallet-balance-amount')).toHaveText('50.00');
  const released = page.locator('[data-testid="wallet-record"][data-type="withdrawal"]').first();
  await expect(released.getByTestId('record-amount')).toHaveText('0.00');
  await expect(released.getByTestId('record-held-released')).toHaveText('23.00 held, then released');
});

for (const [locale, texts] of [
  ['en-US', { pending: 'Pending review', processing: 'Processing', completed: 'Completed' }],
  ['zh-CN', { pending: '待审核', processing: '处理中', completed: '已完成' }],
] as const) {
  // Walked once per language, English on the desktop and Chinese on the phone (the same steps on both sizes).
  test(`deposit on chain → withdraw → approved → paid by the hot wallet → completed (${locale})`, { tag: locale === 'en-US' ? '@desktop' : '@phone' }, async ({ page, request }, info) => {
    test.setTimeout(150_000);
    const mail = `withdraw-flow.${locale}.${info.project.name}.${Date.now()}@example.com`;
    // Each run pays its own (random, so mixed-case checksummed) address: the chain says what this run paid.
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    await register(request, mail);
    await setPayPassword(request, mail, '135790');
    await bookAddress(request, await apiLogin(request, mail), mail, 'BEP20', payee);
    await drivePolls(page);
    await signIn(page, request, mail);
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);

    // 30 USDT deposited to the user's BEP20 address on the local chain, credited after 15 confirmations.
    await page.goto('/#/pages/recharge/recharge');
    await page.reload();
    const address = page.getByTestId('recharge-address');
    await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/);
    const { url, token } = chain();
    await attachTestToken({ url }, token).send(((await address.textContent()) ?? '') as Address, 30n * USDT);
    await untilShown(page, () => expect(page.getByTestId('recharge-row')).toHaveCount(1, { timeout: ASK_MS }));
    await mine(15);
    await untilShown(page, () => expect(page.getByTestId('recharge-row')).toHaveAttribute('data-state', 'credited', { timeout: ASK_MS }));

    // The form: 20 USDT to the payee; 23 held (fee 3).
    await page.goto('/#/pages/wallet/wallet');
    await expect(page.getByTestId('wallet-balance-amount')).toHaveText('30.00');
    await page.getByTestId('wallet-withdraw').click();
    await expect(page).toHaveURL(/pages\/withdraw\/withdraw/);
    await page.getByTestId('wd-amount').fill('20');
    await page.locator(`[data-testid="wd-book-entry"][data-address="${payee}"]`).click();
    await page.getByTestId('wd-paidPwd').fill('135790');
    await expect(page.getByTestId('wd-received')).toHaveText('20.00');
    await expect(page.getByTestId('wd-total')).toHaveText('23.00');
    await shot(page, info, `${locale}-form`);
    await page.getByTestId('wd-submit').click();

    // Under review (every withdrawal waits for an operator: no limit is set in the e2e run).
    const detail = page.getByTestId('withdraw-detail-page');
    await expect(detail).toHaveAttribute('data-state', 'pendingReview');
    await expect(detail.getByTestId('wd-state')).toHaveText(texts.pending);
    await expect(page.getByTestId('wd-detail-received')).toHaveText('20.00 USDT');
    await expect(page.getByTestId('wd-detail-total')).toHaveText('23.00');
    await expect(page.getByTestId('wd-detail-address')).toHaveText(payee);
    await expect(page.getByTestId('wd-detail-tx')).toHaveText('--');
    await shot(page, info, `${locale}-pending-review`);
    const id = new URL(page.url().replace('#/', '')).searchParams.get('id');
    expect(id).toMatch(/^\d+$/);

    // The operator approves; the hot wallet signs and sends at its next pass (every second here).
    expect(ops('withdraw:approve', id!)).toContain(`withdrawal ${id} approved`);
    await untilShown(page, () => expect(detail).toHaveAttribute('data-state', 'processing', { timeout: ASK_MS }));
    await untilShown(page, () => expect(page.getByTestId('wd-detail-tx')).toHaveText(/^0x[0-9a-f]{64}$/, { timeout: ASK_MS }));
    await expect(detail.getByTestId('wd-state')).toHaveText(texts.processing);
    await expect.poll(() => usdtOf(payee), { timeout: 30_000 }).toBe(20n * USDT);
    await shot(page, info, `${locale}-processing`);

    // 15 confirmations later: completed, the hold posted.
    await mine(15);
    await untilShown(page, () => expect(detail).toHaveAttribute('data-state', 'completed', { timeout: ASK_MS }));
    await expect(detail.getByTestId('wd-state')).toHaveText(texts.completed);
    await shot(page, info, `${locale}-completed`);
    expect(await usdtOf(payee)).toBe(20n * USDT); // paid once

    await page.goto('/#/pages/withdraw/withdrawRecord');
    await expect(page.getByTestId('wd-row')).toHaveCount(1);
    await expect(page.getByTestId('wd-row')).toHaveAttribute('data-state', 'completed');
    await expect(page.getByTestId('wd-row')).toContainText(texts.completed);
    await shot(page, info, `${locale}-records`);

    await page.goto('/#/pages/wallet/wallet');
    await expect(page.getByTestId('wallet-balance-amount')).toHaveText('7.00');
    await expect(page.getByTestId('wallet-pendingTransfer')).toHaveText('0.00');
    await expect(page.getByTestId('wallet-processedTransfer')).toHaveText('23.00');
    const record = page.getByTestId('wallet-record').first();
    await expect(record).toHaveAttribute('data-type', 'withdrawal');
    await expect(record).toHaveAttribute('data-status', 'posted');
    await expect(record.getByTestId('record-amount')).toHaveText('-23.00');
    await shot(page, info, `${locale}-wallet`);
  });
}
