// Every route of spec §2 at its exact path. Pure data: the router and the layout read it, and a
// unit test checks it against the spec.

/** full: top bar + left menu (wide) / nav bar (+ tab bar on tabs) (narrow); auth: top bar, no
 * left menu; bare: no side windows at all (privacy, license, full-screen chart). */
export type Chrome = 'full' | 'auth' | 'bare';
export type Tab = 'backtest' | 'robot' | 'mine';

export type PageKind =
  | 'soon'
  | 'login'
  | 'register'
  | 'forgetPwd'
  | 'changePwd'
  | 'changePayPwd'
  | 'personal'
  | 'security'
  | 'apikey'
  | 'bindMarket'
  | 'apiList'
  | 'apiAdd'
  | 'mine'
  | 'aboutus'
  | 'privacy'
  | 'license'
  | 'autoSubscribe'
  | 'monthEquity'
  | 'recommend'
  | 'backtestRecord'
  | 'resultDetail'
  | 'fullScreenKline'
  | 'chooseList'
  | 'themeTest'
  | 'createOrder'
  | 'robotList'
  | 'robotHistory'
  | 'orderDetail'
  | 'market'
  | 'positionCalc'
  | 'riskCalc'
  | 'wallet'
  | 'walletExport'
  | 'recharge'
  | 'buyusd'
  | 'webview'
  | 'withdraw'
  | 'withdrawRecord'
  | 'withdrawDetail'
  | 'equity'
  | 'monthEquityPay'
  | 'pay'
  | 'team'
  | 'teamExplain'
  | 'ranking'
  | 'notice';

export interface RouteDef {
  path: string;
  /** i18n key of the title. */
  title: string;
  titleParams?: Record<string, string>;
  page: PageKind;
  guard?: boolean;
  chrome?: Chrome;
  tab?: Tab;
  /** createOrder: the page name (crypto_grid …). */
  param?: string;
}

export const LOGIN_PATH = '/pages/login/login';
export const REGISTER_PATH = '/pages/rigister/register';

const CREATE_ORDER = [
  'crypto_single', 'crypto_grid', 'crypto_pegasus', 'crypto_martin', 'crypto_marco', 'crypto_blue',
  'forex_single', 'forex_martin', 'forex_grid', 'forex_pegasus', 'forex_dmy', 'forex_marco', 'prt', 'irl',
] as const;

export const ROUTES: RouteDef[] = [
  // tabs
  { path: '/', title: 'page.recommandParams', page: 'recommend', guard: true, tab: 'backtest' },
  { path: '/pages/backtest/recommandParams', title: 'page.recommandParams', page: 'recommend', guard: true, tab: 'backtest' },
  { path: '/pages/robot/robotOrderList/robotOrderList', title: 'page.robotOrderList', page: 'robotList', guard: true, tab: 'robot' },
  { path: '/pages/index/mine', title: 'page.mine', page: 'mine', guard: true, tab: 'mine' },
  { path: '/pages/wallet/wallet', title: 'page.wallet', page: 'wallet', guard: true },
  // backtest
  { path: '/pages/backtest/backtestRecord', title: 'page.backtestRecord', page: 'backtestRecord' },
  { path: '/pages/backtest/resultDateil/resultDetail', title: 'page.resultDetail', page: 'resultDetail' },
  { path: '/pages/backtest/resultDateil/fullScreenKline/fullScreenKline', title: 'page.fullScreenKline', page: 'fullScreenKline', chrome: 'bare' },
  { path: '/pages/backtest/chooseList/chooseList', title: 'page.chooseList', page: 'chooseList' },
  { path: '/pages/themeTest/themeTest', title: 'page.themeTest', page: 'themeTest' },
  // order creation: the spec names the pages under pages/createOrder/; the uni-app style
  // pages/createOrder/<name>/<name> is accepted too. Type 0 (backtest) by default, ?type=1 robot.
  ...CREATE_ORDER.flatMap((name): RouteDef[] => [
    { path: `/pages/createOrder/${name}`, title: `orderPage.${name}`, page: 'createOrder', param: name },
    { path: `/pages/createOrder/${name}/${name}`, title: `orderPage.${name}`, page: 'createOrder', param: name },
  ]),
  // authentication
  { path: LOGIN_PATH, title: 'page.login', page: 'login', chrome: 'auth' },
  { path: REGISTER_PATH, title: 'page.register', page: 'register', chrome: 'auth' },
  { path: '/pages/register/register', title: 'page.register', page: 'register', chrome: 'auth' },
  { path: '/pages/forgetPwd/forgetPwd', title: 'page.forgetPwd', page: 'forgetPwd', chrome: 'auth' },
  // account
  { path: '/pages/apikey/apikey', title: 'page.apikey', page: 'apikey' },
  { path: '/pages/apikey/bindMarket', title: 'page.bindMarket', page: 'bindMarket' },
  { path: '/pages/apikey/apiList', title: 'page.apiList', page: 'apiList' },
  { path: '/pages/apikey/apiAdd', title: 'page.apiAdd', page: 'apiAdd' },
  { path: '/pages/changePwd/changePwd', title: 'page.changePwd', page: 'changePwd' },
  { path: '/pages/changePwd/pay/changePayPwd', title: 'page.changePayPwd', page: 'changePayPwd' },
  { path: '/pages/personal/personal', title: 'page.personal', page: 'personal' },
  // Not in the spec's list (issue 52): two-step, devices, addresses, the anti-phishing phrase.
  { path: '/pages/security/security', title: 'page.security', page: 'security' },
  // other
  { path: '/pages/orderDetail/orderDetail', title: 'page.orderDetail', page: 'orderDetail' },
  { path: '/pages/market/market', title: 'page.market', page: 'market' },
  { path: '/pages/webview/webview', title: 'page.webview', page: 'webview' },
  { path: '/pages/equity/index', title: 'page.equity', page: 'equity' },
  { path: '/pages/equity/monthEquityPay', title: 'page.monthEquityPay', page: 'monthEquityPay' },
  { path: '/pages/buyusd/buyusd', title: 'page.buyusd', page: 'buyusd' },
  { path: '/pages/pay/pay', title: 'page.pay', page: 'pay' },
  { path: '/pages/recharge/recharge', title: 'page.recharge', page: 'recharge', guard: true },
  { path: '/pages/withdraw/withdraw', title: 'page.withdraw', page: 'withdraw' },
  { path: '/pages/withdraw/withdrawRecord', title: 'page.withdrawRecord', page: 'withdrawRecord' },
  { path: '/pages/withdraw/withdrawDetail', title: 'page.withdrawDetail', page: 'withdrawDetail' },
  { path: '/pages/aboutus/aboutus', title: 'page.aboutus', page: 'aboutus' },
  { path: '/pages/notice/notice', title: 'page.notice', page: 'notice' },
  { path: '/pages/robot/robotHistory/robotHistory', title: 'page.robotHistory', page: 'robotHistory' },
  { path: '/pages/group/group', title: 'page.group', page: 'team' },
  { path: '/pages/group/groupNext', title: 'page.groupNext', page: 'team' },
  { path: '/pages/group/explain/explain', title: 'page.groupExplain', page: 'teamExplain' },
  { path: '/pages/index/rankingList/rankingList', title: 'page.rankingList', page: 'ranking' },
  { path: '/pages/wallet/export/export', title: 'page.walletExport', page: 'walletExport' },
  // calculators: the spec names them (position calculator, risk calculator) but gives no route
  { path: '/pages/tools/positionCalc', title: 'page.positionCalc', page: 'positionCalc' },
  { path: '/pages/tools/riskCalc', title: 'page.riskCalc', page: 'riskCalc' },
  // agreements
  { path: '/pages/agreement/privacy/privacy', title: 'page.privacy', page: 'privacy', chrome: 'bare' },
  { path: '/pages/agreement/license/license', title: 'page.license', page: 'license', chrome: 'bare' },
  { path: '/pages/agreement/autoSubscribe/index', title: 'page.autoSubscribe', page: 'autoSubscribe' },
  { path: '/pages/agreement/monthEquity/monthEquity', title: 'page.monthEquity', page: 'monthEquity' },
];

/** Spec §4 login guard: these need a stored token. */
export const isGuarded = (path: string) => ROUTES.some((r) => r.path === path && r.guard);
