// The wallet on a phone and on a desktop, in two languages: a user credited by the operator
// command (`npm run ops -- wallet:adjust`) sees both wallets and the records, filters them, moves
// part of the rebate wallet to the balance wallet (a bad amount is refused under the field), and
// the figures and records follow; then the records are exported (CSV in English, XLSX in
// Japanese), downloaded and opened. Desktop reaches the wallet from the left menu.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { adjustWallet, register, signIn } from './support/users';

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/wallet-${step}.png`, fullPage: true });
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

for (const [locale, format, texts] of [
  ['en-US', 'csv', { transferred: '12.50 moved to the balance wallet', above: 'More than the rebate wallet holds (87.654321)', format: 'Enter an amount with at most 6 decimal places' }],
  ['ja-JP', 'xlsx', { transferred: '12.50 を残高ウォレットへ振り替えました', above: 'リベートウォレットの残高（87.654321）を超えています', format: '小数点以下 6 桁までの金額を入力してください' }],
] as const) {
  test(`a credited user sees the wallet and moves rebate to balance (${locale})`, async ({ page, request }, info) => {
    const mail = `wallet.${locale}.${info.project.name}.${Date.now()}@example.com`;
    await register(request, mail);
    adjustWallet(mail, '100', 'balance', `e2e-${mail}-1`);
    adjustWallet(mail, '87.654321', 'rebate', `e2e-${mail}-2`);
    await signIn(page, request, mail);
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    if (info.project.name === 'desktop') {
      await page.goto('/#/');
      await page.reload();
      await page.getByTestId('menu-wallet').click();
    } else {
      await page.goto('/#/pages/index/mine');
      await page.reload();
      await page.getByTestId('mine-wallet').click();
    }
    await expect(page).toHaveURL(/pages\/wallet\/wallet/);
    await expect(page.getByTestId('wallet-total')).toContainText('187.654321');
    await expect(page.getByTestId('wallet-balance-amount')).toHaveText('100.00');
    await expect(page.getByTestId('wallet-rebate-amount')).toHaveText('87.654321');
    const records = page.getByTestId('wallet-record');
    await expect(records).toHaveCount(2);
    await expect(records.first()).toHaveAttribute('data-wallet', 'rebate');
    await expect(records.first().getByTestId('record-amount')).toHaveText('+87.654321');
    await expect(records.first().getByTestId('record-memo')).toHaveText('e2e credit');
    await expectNoHorizontalScroll(page);
    await shot(page, info, `${locale}-01-credited`);

    // Transfer: a bad amount stays under the field; too much is refused before sending.
    await page.getByTestId('wallet-transfer').click();
    await expect(page.getByTestId('transfer-sheet')).toBeVisible();
    await page.getByTestId('transfer-amount').fill('1.0000001');
    await page.getByTestId('transfer-submit').click();
    await expect(page.getByTestId('amount-error')).toHaveText(texts.format);
    await page.getByTestId('transfer-amount').fill('90');
    await page.getByTestId('transfer-submit').click();
    await expect(page.getByTestId('amount-error')).toHaveText(texts.above);
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/user/api/wallet/transfer')) posts++;
    });
    await page.getByTestId('transfer-amount').fill('12.5');
    await shot(page, info, `${locale}-02-transfer`);
    await page.getByTestId('transfer-submit').click();
    await expect(page.getByText(texts.transferred)).toBeVisible();
    await expect(page.getByTestId('transfer-sheet')).toBeHidden();
    expect(posts).toBe(1);
    await expect(page.getByTestId('wallet-balance-amount')).toHaveText('112.50');
    await expect(page.getByTestId('wallet-rebate-amount')).toHaveText('75.154321');
    await expect(page.getByTestId('wallet-total')).toContainText('187.654321');
    await expect(records).toHaveCount(4);
    await expect(records.first().getByTestId('record-amount')).toHaveText('+12.50');
    await expect(records.first().getByTestId('record-balance-after')).toContainText('112.50');

    // Filter by type.
    await page.getByTestId('records-type').selectOption('transfer');
    await expect(records).toHaveCount(2);
    await expect(records.nth(1).getByTestId('record-amount')).toHaveText('-12.50');
    await page.getByTestId('records-type').selectOption('deposit');
    await expect(page.getByTestId('records-empty')).toBeVisible();
    await page.getByTestId('records-type').selectOption('');
    await expect(records).toHaveCount(4);
    await expectNoHorizontalScroll(page);
    await shot(page, info, `${locale}-03-after`);

    // Export, download and open the file.
    await page.getByTestId('wallet-export').click();
    await expect(page).toHaveURL(/pages\/wallet\/export\/export/);
    await expect(page.getByTestId('exports-empty')).toBeVisible();
    await page.getByTestId(`export-format-${format}`).click();
    await page.getByTestId('export-submit').click();
    const row = page.getByTestId('export-row').first();
    await expect(row).toHaveAttribute('data-status', 'exported', { timeout: 60_000 });
    await expect(row.getByTestId('export-info')).toContainText('4');
    await expectNoHorizontalScroll(page);
    await shot(page, info, `${locale}-04-export`);
    const downloading = page.waitForEvent('download');
    await row.getByTestId('export-download').click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^wallet-records-\\d+\\.${format}$`));
    const saved = await file.path();
    let cells: string[][];
    if (format === 'csv') {
      cells = readFileSync(saved, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n').map((line) => line.split(','));
    } else {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(saved);
      cells = [];
      // Money cells are numbers a spreadsheet sums; with 6 decimals they are the ledger's exact texts.
      workbook.getWorksheet('records')!.eachRow((r) => cells.push((r.values as (string | number | null | undefined)[]).slice(1).map((v) => (typeof v === 'number' ? v.toFixed(6) : String(v ?? '')))));
    }
    // Column headers in the user's language.
    expect(cells[0].slice(2, 6)).toEqual(locale === 'en-US' ? ['Type', 'Wallet', 'Amount', 'Balance after'] : ['種類', 'ウォレット', '金額', '取引後残高']);
    // Type and wallet in words of that language too, not the API's codes.
    const [adjust, transfer, balance, rebate] = locale === 'en-US' ? ['Adjustment', 'Transfer', 'Balance', 'Rebate'] : ['調整', '振替', '残高', 'リベート'];
    expect(cells.slice(1).map((c) => [c[2], c[3], c[4]])).toEqual([
      [adjust, balance, '100.000000'],
      [adjust, rebate, '87.654321'],
      [transfer, rebate, '-12.500000'],
      [transfer, balance, '12.500000'],
    ]);
  });
}
