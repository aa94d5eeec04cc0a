// Trading accounts the browser tests bind through the API.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { mailedCode, type Envelope } from './users';

/** Binds an MT5 account as the page's signed-in user (no terminal needed for a paper robot), with an API_KEY e-mail code; its id. */
export async function bindMt5(page: Page, request: APIRequestContext, name: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const headers = { authorization: `Bearer ${token!}` };
  const me = (await (await request.get('/user/api/info', { headers })).json()) as Envelope<{ mail: string }>;
  expect(me.code, me.msg).toBe('00000');
  const code = await mailedCode(request, headers, me.data.mail, 'API_KEY');
  const res = (await (
    await request.post('/user/api/apikey/bind', { data: { exchange: 'mt5', accountName: name, code }, headers })
  ).json()) as Envelope<{ account: { id: number } }>;
  expect(res.code, res.msg).toBe('00000');
  return res.data.account.id;
}
