import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND, routeOf } from '../src/app/currentRoute';
import { isGuarded, ROUTES } from '../src/app/routeTable';
import { inviteLink } from '../src/lib/clipboard';

// Spec §2 paths, written out by hand so a renamed route fails here.
const SPEC_PATHS = [
  '/', '/pages/backtest/recommandParams', '/pages/robot/robotOrderList/robotOrderList', '/pages/index/mine', '/pages/wallet/wallet',
  '/pages/backtest/backtestRecord', '/pages/backtest/resultDateil/resultDetail', '/pages/backtest/resultDateil/fullScreenKline/fullScreenKline',
  '/pages/backtest/chooseList/chooseList', '/pages/themeTest/themeTest',
  ...['crypto_single', 'crypto_grid', 'crypto_pegasus', 'crypto_martin', 'crypto_marco', 'crypto_blue', 'forex_single', 'forex_martin', 'forex_grid', 'forex_pegasus', 'forex_dmy', 'forex_marco', 'prt', 'irl'].map((n) => `/pages/createOrder/${n}`),
  '/pages/login/login', '/pages/rigister/register', '/pages/register/register', '/pages/forgetPwd/forgetPwd',
  '/pages/apikey/apikey', '/pages/apikey/bindMarket', '/pages/apikey/apiList', '/pages/apikey/apiAdd',
  '/pages/changePwd/changePwd', '/pages/changePwd/pay/changePayPwd', '/pages/personal/personal',
  '/pages/orderDetail/orderDetail', '/pages/market/market', '/pages/webview/webview', '/pages/equity/index', '/pages/equity/monthEquityPay',
  '/pages/buyusd/buyusd', '/pages/pay/pay', '/pages/recharge/recharge', '/pages/withdraw/withdraw', '/pages/withdraw/withdrawRecord',
  '/pages/withdraw/withdrawDetail', '/pages/aboutus/aboutus', '/pages/notice/notice', '/pages/robot/robotHistory/robotHistory',
  '/pages/group/group', '/pages/group/groupNext', '/pages/group/explain/explain', '/pages/index/rankingList/rankingList',
  '/pages/wallet/export/export', '/pages/agreement/privacy/privacy', '/pages/agreement/license/license',
  '/pages/agreement/autoSubscribe/index', '/pages/agreement/monthEquity/monthEquity',
];

describe('routes', () => {
  const paths = ROUTES.map((r) => r.path);
  it('finds each route by its path, in any case and with a trailing slash; anything else is not found', () => {
    for (const route of ROUTES) {
      expect(routeOf(route.path)).toBe(route);
      expect(routeOf(route.path.toUpperCase())).toBe(route);
      expect(routeOf(`${route.path}/`)).toBe(route);
    }
    expect(routeOf('')).toBe(ROUTES.find((r) => r.path === '/'));
    for (const unknown of ['/pages/nowhere', '/pages/login', '/pages/login/login/extra', '/pages/createOrder/crypto_gridx']) expect(routeOf(unknown)).toBe(NOT_FOUND);
  });
  it('has every spec path once', () => {
    expect(SPEC_PATHS.filter((p) => !paths.includes(p))).toEqual([]);
    expect(new Set(paths).size).toBe(paths.length);
  });
  it('guards exactly mine, recommended params, robot orders, wallet and recharge', () => {
    expect(paths.filter(isGuarded).sort()).toEqual(
      ['/', '/pages/backtest/recommandParams', '/pages/index/mine', '/pages/recharge/recharge', '/pages/robot/robotOrderList/robotOrderList', '/pages/wallet/wallet'].sort(),
    );
  });
  it('hides side windows on privacy, license and the full-screen chart; login pages have no left menu', () => {
    const chrome = (p: string) => ROUTES.find((r) => r.path === p)?.chrome;
    expect(['/pages/agreement/privacy/privacy', '/pages/agreement/license/license', '/pages/backtest/resultDateil/fullScreenKline/fullScreenKline'].map(chrome)).toEqual(['bare', 'bare', 'bare']);
    expect(['/pages/login/login', '/pages/rigister/register', '/pages/forgetPwd/forgetPwd'].map(chrome)).toEqual(['auth', 'auth', 'auth']);
  });
  it('builds invite links to the register page', () => {
    expect(inviteLink('https://x.example', 'AB 1')).toBe('https://x.example/#/pages/rigister/register?inviteCode=AB%201');
  });
});

describe('architecture', () => {
  const src = join(import.meta.dirname, '../src');
  const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : /\.tsx?$/.test(f) ? [join(dir, f)] : []));
  const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);

  it('features never import each other, and shared code never imports features or the app', () => {
    const offences: string[] = [];
    for (const file of files(src)) {
      const rel = relative(src, file).split(sep);
      for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = relative(src, join(file, '..', spec)).split(sep);
        if (rel[0] === 'features' && target[0] === 'features' && target[1] !== rel[1]) offences.push(`${rel.join('/')} → ${spec}`);
        if ((rel[0] === 'lib' || rel[0] === 'components') && (target[0] === 'features' || target[0] === 'app')) offences.push(`${rel.join('/')} → ${spec}`);
        if (rel[0] === 'features' && target[0] === 'app') offences.push(`${rel.join('/')} → ${spec}`);
      }
    }
    expect(offences).toEqual([]);
  });
  it('of our packages imports only @lq/contracts and the zod-only @lq/strategies/schemas', () => {
    const ours = files(src).flatMap(importsOf).filter((s) => s.startsWith('@lq/'));
    expect([...new Set(ours)].sort()).toEqual(['@lq/contracts', '@lq/strategies/schemas']);
  });
});
