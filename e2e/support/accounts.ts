// Trading accounts the browser tests bind through the API.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Envelope } from './users';

/** Binds an MT5 account as the page's signed-in user (no terminal needed for a paper robot); its id. */
export async function bindMt5(page: Page, request: APIRequestContext, name: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const res = (await (
    await request.post('/user/api/apikey/bind', { data: { exchange: 'mt5', accountName: name }, headers: { Authorization: `Bearer ${token!}` } })
  ).json()) as Envelope<{ account: { id: number } }>;
  expect(res.code, res.msg).toBe('00000');
  return res.data.account.id;
}
