// Route → lazily loaded page. Composition happens here: features never import each other.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import type { CreateOrderPage as OrderPageName } from '../features/backtest/strategies';
import { LanguagePicker } from '../features/locale';
import { MarketSwitcher } from '../features/market';
import i18n, { BACKTEST_TEXTS } from '../i18n';
import { lazyPage } from './lazyPage';
import { isConsolePath, NOT_FOUND, routeOf } from './currentRoute';
import type { PageKind, RouteDef } from './routeTable';

const Login = lazyPage(() => import('../features/auth/LoginPage'));
const Register = lazyPage(() => import('../features/auth/RegisterPage'));
const ForgetPwd = lazyPage(() => import('../features/auth/ForgetPwdPage'));
const ChangePwd = lazyPage(() => import('../features/account/ChangePwdPage'));
const ChangePayPwd = lazyPage(() => import('../features/account/ChangePayPwdPage'));
const Personal = lazyPage(() => import('../features/account/PersonalPage'));
const Security = lazyPage(() => import('../features/account/SecurityPage'));
// Trading accounts (API keys).
const Apikey = lazyPage(() => import('../features/apikey/ApikeyPage'));
const BindMarket = lazyPage(() => import('../features/apikey/BindMarketPage'));
const ApiList = lazyPage(() => import('../features/apikey/ApiListPage'));
const ApiAdd = lazyPage(() => import('../features/apikey/ApiAddPage'));
const Mine = lazyPage(() => import('../features/account/MinePage'));
const About = lazyPage(() => import('../features/info/AboutPage'));
const Agreement = lazyPage(() => import('../features/info/AgreementPage'));
const ComingSoon = lazyPage(() => import('../features/info/ComingSoonPage'));
/**
 * A backtest or robot page and the words it uses (i18n/), fetched side by side rather than the
 * words after the page's first render. A page preloaded at boot asks for them once i18next is up.
 */
const backtestTexts = () =>
  i18n.isInitialized
    ? i18n.loadNamespaces(BACKTEST_TEXTS)
    : new Promise<void>((resolve) => i18n.on('initialized', () => void i18n.loadNamespaces(BACKTEST_TEXTS).then(resolve)));
const withBacktestTexts = <T,>(page: Promise<T>) => Promise.all([page, backtestTexts()]).then(([loaded]) => loaded);
// Backtest screens: each its own chunk; charts load later still, from inside the report pages.
const Recommend = lazyPage(() => withBacktestTexts(import('../features/backtest/RecommendPage')));
const BacktestRecord = lazyPage(() => withBacktestTexts(import('../features/backtest/RecordPage')));
const ResultDetail = lazyPage(() => withBacktestTexts(import('../features/backtest/ResultDetailPage')));
const FullScreenKline = lazyPage(() => withBacktestTexts(import('../features/backtest/FullScreenKlinePage')));
const ChooseList = lazyPage(() => withBacktestTexts(import('../features/backtest/ChooseListPage')));
const ThemeTest = lazyPage(() => withBacktestTexts(import('../features/backtest/ThemeTestPage')));
const CreateOrder = lazyPage(() => withBacktestTexts(import('../features/backtest/CreateOrderPage')));
// Robot screens and calculators.
const RobotList = lazyPage(() => withBacktestTexts(import('../features/robot/RobotListPage')));
const OrderDetail = lazyPage(() => withBacktestTexts(import('../features/robot/OrderDetailPage')));
const Market = lazyPage(() => withBacktestTexts(import('../features/robot/MarketPage')));
const PositionCalc = lazyPage(() => import('../features/tools/PositionCalcPage'));
const RiskCalc = lazyPage(() => import('../features/tools/RiskCalcPage'));
// Wallet.
const Wallet = lazyPage(() => import('../features/wallet/WalletPage'));
const WalletExport = lazyPage(() => import('../features/wallet/ExportPage'));
const Recharge = lazyPage(() => import('../features/wallet/RechargePage'));
const BuyUsd = lazyPage(() => import('../features/wallet/BuyUsdPage'));
const Webview = lazyPage(() => import('../features/wallet/WebviewPage'));
const Withdraw = lazyPage(() => import('../features/wallet/WithdrawPage'));
const WithdrawRecord = lazyPage(() => import('../features/wallet/WithdrawRecordPage'));
const WithdrawDetail = lazyPage(() => import('../features/wallet/WithdrawDetailPage'));
// Benefits.
const Equity = lazyPage(() => import('../features/benefits/EquityPage'));
const MonthEquityPay = lazyPage(() => import('../features/benefits/MonthEquityPayPage'));
const Pay = lazyPage(() => import('../features/benefits/PayPage'));
// Team.
const Team = lazyPage(() => import('../features/team/TeamPage'));
const TeamExplain = lazyPage(() => import('../features/team/ExplainPage'));
const Ranking = lazyPage(() => import('../features/team/RankingPage'));
const Notice = lazyPage(() => import('../features/notice/NoticePage'));
export const NotFound = lazyPage(() => import('../features/info/NotFoundPage'));
// The operator console: a chunk of its own, never loaded on a user's path.
const Console = lazyPage(() => import('../features/console/ConsoleApp'));
export const consoleElement = <Console language={<LanguagePicker />} />;

// The unread badge of Mine's notice row loads after the page (TanStack Query stays out of the first screen).
const NoticeCount = lazy(() => import('../features/notice/NoticeBadge').then((m) => ({ default: m.NoticeCount })));
const noticeCount = (
  <Suspense fallback={null}>
    <NoticeCount />
  </Suspense>
);

// Where notifications go, on the personal page: the notice feature's, loaded with the page.
const NotificationSettings = lazy(() => import('../features/notice/NotificationSettings'));
const notificationSettings = (
  <Suspense fallback={null}>
    <NotificationSettings />
  </Suspense>
);

// The address book on the Security page: the wallet feature's, loaded with the page.
const SavedAddresses = lazy(() => import('../features/wallet/SavedAddresses'));
const savedAddresses = (
  <Suspense fallback={null}>
    <SavedAddresses />
  </Suspense>
);

const mineSettings = (
  <>
    <LanguagePicker variant="row" />
    <MarketSwitcher variant="row" />
  </>
);

/** Pages that take props from the route (or settings); every other page renders bare from PRELOADS. */
const WITH_PROPS: Partial<Record<PageKind, (route: RouteDef) => ReactNode>> = {
  mine: () => <Mine settings={mineSettings} noticeCount={noticeCount} />,
  personal: () => <Personal notifications={notificationSettings} />,
  security: () => <Security addressBook={savedAddresses} />,
  privacy: () => <Agreement doc="privacy" />,
  license: () => <Agreement doc="license" />,
  autoSubscribe: () => <Agreement doc="autoSubscribe" />,
  monthEquity: () => <Agreement doc="monthEquity" />,
  createOrder: (route) => <CreateOrder page={route.param as OrderPageName} />,
  robotList: () => <RobotList tab="active" />,
  robotHistory: () => <RobotList tab="history" />,
};

/** Each kind's lazy page (preload() starts its download). */
const PRELOADS: Record<PageKind, { preload(): void }> = {
  soon: ComingSoon,
  login: Login,
  register: Register,
  forgetPwd: ForgetPwd,
  changePwd: ChangePwd,
  changePayPwd: ChangePayPwd,
  personal: Personal,
  security: Security,
  apikey: Apikey,
  bindMarket: BindMarket,
  apiList: ApiList,
  apiAdd: ApiAdd,
  mine: Mine,
  aboutus: About,
  privacy: Agreement,
  license: Agreement,
  autoSubscribe: Agreement,
  monthEquity: Agreement,
  recommend: Recommend,
  backtestRecord: BacktestRecord,
  resultDetail: ResultDetail,
  fullScreenKline: FullScreenKline,
  chooseList: ChooseList,
  themeTest: ThemeTest,
  createOrder: CreateOrder,
  robotList: RobotList,
  robotHistory: RobotList,
  orderDetail: OrderDetail,
  market: Market,
  positionCalc: PositionCalc,
  riskCalc: RiskCalc,
  wallet: Wallet,
  walletExport: WalletExport,
  recharge: Recharge,
  buyusd: BuyUsd,
  webview: Webview,
  withdraw: Withdraw,
  withdrawRecord: WithdrawRecord,
  withdrawDetail: WithdrawDetail,
  equity: Equity,
  monthEquityPay: MonthEquityPay,
  pay: Pay,
  team: Team,
  teamExplain: TeamExplain,
  ranking: Ranking,
  notice: Notice,
};

/** Starts loading the page the app opens on, in parallel with the texts, to avoid a waterfall. */
export function preloadPage(path: string, hasToken: boolean): void {
  if (isConsolePath(path)) return Console.preload();
  const route = routeOf(path);
  if (route === NOT_FOUND) return NotFound.preload();
  PRELOADS[route.guard && !hasToken ? 'login' : route.page].preload();
}

export function pageElement(route: RouteDef): ReactNode {
  if (route.page === 'soon') return <ComingSoon titleKey={route.title} params={route.titleParams} />;
  const withProps = WITH_PROPS[route.page];
  if (withProps) return withProps(route);
  // Every entry is a lazyPage component; those that need props are in WITH_PROPS.
  const Page = PRELOADS[route.page] as unknown as ComponentType;
  return <Page />;
}
