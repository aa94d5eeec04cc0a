import { it } from 'vitest';
import { registerUser, startTestApp } from '../test/helpers';
it('auth cache cost', async () => {
  for (const ms of ['5000', '0', '5000', '0']) {
    const t = await startTestApp({ env: { AUTH_CACHE_MS: ms } });
    const u = await registerUser(t);
    for (let i = 0; i < 300; i++) await t.call('GET', '/user/api/info', { token: u.token });
    const t0 = performance.now();
    for (let i = 0; i < 3000; i++) await t.call('GET', '/user/api/info', { token: u.token });
    console.log(t.database.kind, 'cache', ms, ((performance.now() - t0) / 3000).toFixed(3), 'ms/req');
    await t.close();
  }
}, 120_000);
