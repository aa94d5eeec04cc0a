// pages/createOrder/<name> (type 0 = backtest, 1 = robot): one form driven by the strategy's zod
// schema from @lq/strategies/schemas, checked on the client exactly as the server checks it;
// errors next to each field in the user's language. Type 1 adds the trading account (required),
// paper / live mode and the seat summary, hides the backtest range and creates a robot
// (order/api/robot/create); "no free seat" opens a sheet that explains seats.
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useBacktestTranslation } from '../../i18n';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CREATE_ORDER_TYPE, ERRORS } from '@lq/contracts';
import type { AccountItem, AccountList, RobotCreateResult, SeatSummary } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { ApiError, TransportError } from '../../lib/api';
import { api } from '../../lib/session';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { messageForField } from '../../lib/validation';
import { createBacktest, invalidateBacktests, useContractInfo, useCurrencies, useIntervals, type CurrencyItem } from './api';
import { checkValues, defaultRange, describeFields, DISTANCE_SLOTS, idFromQuery, parseParamsQuery, robotCreateBody, robotFields, slotName, starterParams, valuesFromParams, type FieldSpec, type FormValues, type RobotMode } from './formModel';
import { isStrategyKey, marketOfPage, PAGE_STRATEGIES, type CreateOrderPage as PageName, type Market, type StrategyKey } from './strategies';
import { INTERVALS, strategyParamSchemas } from './schemas';
import { ConfirmSheet, Notice, useFormatters } from './ui';
import { sizeRulesOf } from './sizes';

const TIMEZONES = ['UTC', 'Asia/Shanghai', 'Asia/Hong_Kong', 'Asia/Taipei', 'Asia/Tokyo', 'Asia/Bangkok', 'Asia/Ho_Chi_Minh', 'Asia/Jakarta', 'Asia/Singapore', 'Europe/London', 'Europe/Berlin', 'America/New_York'];
const DISTANCE_FIELDS = new Set(['gap', 'orderTakeProfit', 'orderStopLoss', 'refillInterval', 'cycleTakeProfit', 'sweep', 'buffer']);
const LOT_FIELDS = new Set(['firstLots', 'secondLots', 'thirdLots', 'lotsPerGrid']);

export const dataSourceOfMarket = (market: Market, currentType: string) => (market === 'forex' ? 'mt5' : currentType === 'mt5' ? 'binance' : currentType);

export default function CreateOrderPage({ page }: { page: PageName }) {
  const { t } = useBacktestTranslation();
  const { t: tr } = useTranslation('robot');
  const [search, setSearch] = useSearchParams();
  const current = useAppStore((s) => s.currentDataSource);
  const market: Market = marketOfPage(page) ?? (current.type === 'mt5' ? 'forex' : 'crypto');
  const dataSource = dataSourceOfMarket(market, current.type);
  const offered = PAGE_STRATEGIES[page];
  const asked = search.get('strategy');
  const strategy: StrategyKey = isStrategyKey(asked) && offered.includes(asked) ? asked : offered[0];
  const type = search.get('type') === String(CREATE_ORDER_TYPE.robot) ? CREATE_ORDER_TYPE.robot : CREATE_ORDER_TYPE.backtest;
  const currencies = useCurrencies(dataSource);
  const settled = currencies.isSuccess || currencies.isError;

  return (
    <div className="bt-page" data-testid="create-order" data-strategy={strategy} data-market={market} data-type={type}>
      <p className="bt-lead">{t(`strategyInfo.${strategy}`)}</p>
      {/* Backtest or robot with the same parameters (a recommendation's "edit" opens type 0). */}
      <div className="bt-segment" role="radiogroup" aria-label={tr('create.type')}>
        {([CREATE_ORDER_TYPE.backtest, CREATE_ORDER_TYPE.robot] as const).map((ty) => (
          <button
            key={ty}
            type="button"
            role="radio"
            aria-checked={ty === type}
            className="bt-segment-item"
            onClick={() => setSearch((prev) => {
              const next = new URLSearchParams(prev);
              if (ty === CREATE_ORDER_TYPE.robot) next.set('type', String(ty));
              else next.delete('type');
              return next;
            }, { replace: true })}
            data-testid={ty === CREATE_ORDER_TYPE.robot ? 'type-robot' : 'type-backtest'}
          >
            {tr(ty === CREATE_ORDER_TYPE.robot ? 'create.typeRobot' : 'create.typeBacktest')}
          </button>
        ))}
      </div>
      {offered.length > 1 ? (
        <div className="bt-segment" role="radiogroup" aria-label={t('field.variant')}>
          {offered.map((s) => (
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={s === strategy}
              className="bt-segment-item"
              onClick={() => setSearch((prev) => {
                const next = new URLSearchParams(prev);
                next.set('strategy', s);
                return next;
              }, { replace: true })}
              data-testid={`variant-${s}`}
            >
              {t(`strategy.${s}`)}
            </button>
          ))}
        </div>
      ) : null}
      {settled ? (
        <StrategyForm
          key={`${strategy}:${market}:${type}`}
          strategy={strategy}
          market={market}
          dataSource={dataSource}
          robot={type === CREATE_ORDER_TYPE.robot}
          currencies={currencies.data ?? []}
          prefill={parseParamsQuery(search.get('params'))}
          prefillSymbol={search.get('symbol')}
          sourceBacktestId={idFromQuery(search.get('from'))}
        />
      ) : (
        <div className="spinner" aria-label={t('common.loading')} />
      )}
    </div>
  );
}

interface FormProps {
  strategy: StrategyKey;
  market: Market;
  dataSource: string;
  robot: boolean;
  currencies: CurrencyItem[];
  prefill: Record<string, unknown>;
  prefillSymbol: string | null;
  sourceBacktestId?: number | undefined;
}

// ---- robot mode: trading accounts, seats, create (features never import each other: the calls
// are made here with the contracts' types; the robot screens have their own) ----

const ROBOT_PATHS = { accounts: 'user/api/apikey/list', seats: 'order/api/robot/seats', create: 'order/api/robot/create' } as const;

function useRobotAccounts(market: Market, enabled: boolean) {
  return useQuery({
    queryKey: ['robot-form-accounts', market],
    enabled,
    // Fetched on every visit: an account bound a moment ago must be offered.
    queryFn: () => api.get<AccountList>(ROBOT_PATHS.accounts, { query: { market }, silent: true }),
  });
}

function useRobotSeats(dataSource: string, enabled: boolean) {
  return useQuery({
    queryKey: ['robot-seats', dataSource],
    enabled,
    queryFn: () => api.get<SeatSummary>(ROBOT_PATHS.seats, { query: { dataSource }, silent: true }),
    staleTime: 10_000,
  });
}

type SeatInfo = { market?: string; used?: number; total?: number } | null;

/** What a refusal offers next (spec §8): upgrade to VIP, unlock the basic rights, buy a backtest slot. */
interface Offer {
  to: string;
  label: string;
  testId: string;
}
function offerOf(code: string, market: Market): Offer | undefined {
  if (code === ERRORS.NOT_VIP.code) return { to: '/pages/equity/index', label: 'backtest.upgrade', testId: 'upgrade-vip' };
  if (code === ERRORS.BENEFIT_NOT_UNLOCKED.code) return { to: '/pages/pay/pay?item=unlock', label: 'benefit.unlock', testId: 'offer-unlock' };
  if (code === ERRORS.BACKTEST_SLOTS_FULL.code) return { to: `/pages/equity/monthEquityPay?kind=slot&market=${market}`, label: 'benefit.buySlot', testId: 'offer-slot' };
  return undefined;
}

/** Spec §8 "no free seat (offer to open)": explain seats and offer a seat pack of this market. */
function NoSeatSheet({ info, onClose }: { info: SeatInfo; onClose: () => void }) {
  const { t } = useTranslation('robot');
  return (
    <Sheet title={t('create.noSeatTitle')} onClose={onClose} testId="no-seat-sheet">
      <div className="stack">
        <p className="bt-definition">{t('create.noSeat', { used: info?.used ?? '--', total: info?.total ?? '--' })}</p>
        <p className="bt-definition">{t('create.seatExplain')}</p>
        <div className="bt-actions">
          <Link className="btn btn-primary" to={`/pages/equity/monthEquityPay?kind=seat${info?.market ? `&market=${info.market}` : ''}`} data-testid="open-seat">{t('create.openSeat')}</Link>
          <Link className="btn btn-secondary" to="/pages/robot/robotOrderList/robotOrderList" data-testid="seat-robots">{t('create.seeRobots')}</Link>
        </div>
      </div>
    </Sheet>
  );
}

function AccountPicker({ market, accounts, value, onChange, error }: { market: Market; accounts: AccountItem[] | undefined; value: number | undefined; onChange: (id: number | undefined) => void; error?: string }) {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  if (accounts === undefined) return <div className="spinner" aria-label={tc('common.loading')} />;
  const usable = accounts.filter((a) => a.market === market);
  if (!usable.length) {
    return (
      <div className="field bt-field-wide">
        <Notice testId="no-accounts">
          <span>{t('create.noAccounts')}</span>
          <Link to="/pages/apikey/apiList" className="bt-link" data-testid="bind-account">{t('bindAccount')}</Link>
        </Notice>
        {error ? <p className="field-error" role="alert" data-testid="accountId-error">{error}</p> : null}
      </div>
    );
  }
  return (
    <div className="field bt-field-wide">
      <label htmlFor="f-accountId">{t('create.account')}</label>
      <select
        id="f-accountId"
        className="input"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'f-accountId-err' : 'f-accountId-hint'}
        data-testid="field-accountId"
      >
        <option value="">{t('create.chooseAccount')}</option>
        {usable.map((a) => (
          <option key={a.id} value={a.id} disabled={a.frozen}>
            {a.accountName} · {t(`exchange.${a.exchange}`, { defaultValue: a.exchange })}{a.apiKeyMasked ? ` · ${a.apiKeyMasked}` : ''} · {a.leverage}×{a.frozen ? ` · ${t('frozen')}` : ''}
          </option>
        ))}
      </select>
      <p id="f-accountId-hint" className="field-hint">{t('create.accountHint')}</p>
      {usable.some((a) => a.warnings.includes('positionMode')) && value !== undefined && usable.find((a) => a.id === value)?.warnings.includes('positionMode') ? (
        <p className="bt-warn" data-testid="position-mode-warning">{t('create.positionModeWarning')}</p>
      ) : null}
      {error ? <p id="f-accountId-err" className="field-error" role="alert" data-testid="accountId-error">{error}</p> : null}
    </div>
  );
}

function StrategyForm({ strategy, market, dataSource, robot, currencies, prefill, prefillSymbol, sourceBacktestId }: FormProps) {
  const { t } = useBacktestTranslation();
  const { t: tr } = useTranslation('robot');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fmt = useFormatters();
  const schema = strategyParamSchemas[strategy];
  const fields = useMemo(() => (robot ? robotFields(describeFields(schema, market)) : describeFields(schema, market)), [schema, market, robot]);
  const accounts = useRobotAccounts(market, robot);
  const seats = useRobotSeats(dataSource, robot);
  const [accountId, setAccountId] = useState<number | undefined>();
  const [accountError, setAccountError] = useState<string | undefined>();
  const [mode, setMode] = useState<RobotMode>('live');
  const [noSeat, setNoSeat] = useState<SeatInfo | undefined>();
  const intervals = useIntervals(INTERVALS);
  const [serverError, setServerError] = useState<{ text: string; offer?: Offer } | null>(null);
  const [busy, setBusy] = useState(false);
  /** A live robot's checked parameters, waiting for the user's confirmation (paper starts at once). */
  const [liveToConfirm, setLiveToConfirm] = useState<Record<string, unknown> | null>(null);
  const [now] = useState(() => Date.now());

  const defaults = useMemo(() => {
    const symbol = (typeof prefill.symbol === 'string' ? prefill.symbol : prefillSymbol) ?? currencies[0]?.symbol ?? '';
    const item = currencies.find((c) => c.symbol === symbol);
    const range = defaultRange(item?.from, item?.to, now);
    const params = { ...starterParams(market), ...range, ...prefill, symbol };
    return valuesFromParams(fields, params);
  }, [fields, market, prefill, prefillSymbol, currencies, now]);

  const resolver: Resolver<FormValues> = (values) => {
    const result = checkValues(schema, fields, values, { market });
    const errors: Record<string, { type: string; message: string }> = {};
    if (!result.ok) for (const [k, m] of Object.entries(result.errors)) errors[k] = { type: 'schema', message: m };
    if (!robot) for (const k of ['start', 'end']) if (!values[k]) errors[k] ??= { type: 'required', message: 'validation.required' };
    return Object.keys(errors).length ? { values: {}, errors: errors as FieldErrors<FormValues> } : { values, errors: {} };
  };
  const { register, handleSubmit, control, setError, formState } = useForm<FormValues>({ defaultValues: defaults, resolver, mode: 'onSubmit', reValidateMode: 'onChange' });
  const watched = useWatch({ control, name: 'symbol' });
  const symbol = typeof watched === 'string' ? watched : '';
  const currency = currencies.find((c) => c.symbol === symbol);
  const contract = useContractInfo(market === 'crypto' && symbol ? symbol : undefined).data;
  const accountExchange = accounts.data?.list.find((a) => a.id === accountId)?.exchange;

  const startRobot = async (params: Record<string, unknown>, account: number) => {
    setBusy(true);
    try {
      const result = await api.post<RobotCreateResult>(ROBOT_PATHS.create, robotCreateBody({ strategy, dataSource, params, accountId: account, mode, sourceBacktestId }), { silent: true });
      void queryClient.invalidateQueries({ queryKey: ['robots'] });
      void queryClient.invalidateQueries({ queryKey: ['robot-seats'] });
      const notice = result.notices[0]?.message;
      showToast(notice ? `${tr('create.started')} · ${t('backtest.adjusted', { message: notice })}` : tr('create.started'), 'success');
      navigate(`/pages/orderDetail/orderDetail?id=${result.robot.id}`);
    } catch (error) {
      if (error instanceof ApiError) {
        const data = error.data as ({ field?: string } & NonNullable<SeatInfo>) | null;
        const field = data?.field?.replace(/^params\./, '');
        if (error.code === ERRORS.NO_FREE_SEAT.code) setNoSeat(data ?? null);
        else if (error.code === ERRORS.BENEFIT_NOT_UNLOCKED.code) setServerError({ text: error.message, offer: offerOf(error.code, market) });
        else if (error.code === ERRORS.ACCOUNT_REQUIRED.code || field === 'accountId') setAccountError(error.message);
        else if (field && fields.some((f) => f.name === field)) setError(field, { type: 'server', message: messageForField(error.message, field) }, { shouldFocus: true });
        else setServerError({ text: error.message });
      } else setServerError({ text: t(error instanceof TransportError && error.timeout ? 'common.timeout' : 'common.networkError') });
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    const checked = checkValues(schema, fields, values, { market });
    if (!checked.ok) return;
    setServerError(null);
    if (robot) {
      // Spec §5: a trading account must be chosen before proceeding.
      if (accountId === undefined) {
        setAccountError(tr('create.accountRequired'));
        document.getElementById('f-accountId')?.focus();
        return;
      }
      setAccountError(undefined);
      if (mode === 'live') {
        setLiveToConfirm(checked.params);
        return;
      }
      await startRobot(checked.params, accountId);
      return;
    }
    setBusy(true);
    let created = false;
    try {
      const result = await createBacktest({ type: 0, strategy, dataSource, symbol: String(checked.params.symbol), params: checked.params });
      void invalidateBacktests(queryClient);
      const notice = result.notices[0]?.message;
      showToast(notice ? `${t('backtest.started')} · ${t('backtest.adjusted', { message: notice })}` : t('backtest.started'), 'success');
      // Created: the button stays busy (disabled) while the page goes, so a slow second click sends nothing.
      created = true;
      navigate(`/pages/backtest/resultDateil/resultDetail?id=${result.backtest.id}`);
    } catch (error) {
      if (error instanceof ApiError) {
        const field = (error.data as { field?: string } | null)?.field?.replace(/^params\./, '');
        if (field && fields.some((f) => f.name === field)) setError(field, { type: 'server', message: messageForField(error.message, field) }, { shouldFocus: true });
        else setServerError({ text: error.message, offer: offerOf(error.code, market) });
      } else setServerError({ text: t(error instanceof TransportError && error.timeout ? 'common.timeout' : 'common.networkError') });
    } finally {
      if (!created) setBusy(false);
    }
  }, () => {
    // Field errors are shown; a missing account is named at the same time, not after them.
    if (robot && accountId === undefined) setAccountError(tr('create.accountRequired'));
  });
  // One create per click: a double click sends one request, whatever the time validation takes
  // before `busy` disables the button.
  const submitting = useRef(false);
  const submitOnce = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting.current) return;
    submitting.current = true;
    void onSubmit(e).finally(() => {
      submitting.current = false;
    });
  };

  const errorText = (name: string) => {
    const e = formState.errors[name];
    if (!e?.message) return undefined;
    return e.type === 'server' ? e.message : t(e.message);
  };
  const hintOf = (f: FieldSpec): string | undefined => {
    if (f.name === 'symbol' && currency?.from !== undefined) return t('fieldHint.dataRange', { from: fmt.date(currency.from), to: fmt.date(currency.to) });
    if (DISTANCE_FIELDS.has(f.name) || (f.name === 'orderTakeProfit' || f.name === 'orderStopLoss')) return t(market === 'forex' ? 'fieldHint.distanceForex' : 'fieldHint.distanceCrypto');
    if (f.name === 'takeProfit' || f.name === 'stopLoss') return t('fieldHint.money');
    if (f.name === 'makerFee' || f.name === 'takerFee') return t('fieldHint.fee');
    if (LOT_FIELDS.has(f.name)) {
      if (market === 'forex') return t('fieldHint.lotsForex');
      const size = currency?.instrument?.contractSize ?? (contract ? contract.ctVal * contract.ctMult : undefined);
      // The sizes the venue takes: the chosen account's exchange for a robot, else the data source's.
      const rules = sizeRulesOf(currency?.instrument, robot ? accountExchange : undefined);
      const min = rules?.minQty ?? contract?.minSz;
      if (size !== undefined && min !== undefined) {
        return t('fieldHint.contract', { size: fmt.price(size, 8), base: symbol.replace(/USDT?$/, ''), min: fmt.price(min, 8), step: fmt.price(rules?.qtyStep ?? min, 8) });
      }
      return t('fieldHint.lotsCrypto');
    }
    return undefined;
  };

  const groups: FieldSpec['group'][] = ['basic', 'strategy', 'risk'];
  return (
    <form className="bt-form" onSubmit={submitOnce} noValidate data-testid="strategy-form">
      {robot ? (
        <fieldset className="bt-fieldset" data-testid="robot-fields">
          <legend>{tr('create.robotGroup')}</legend>
          <div className="bt-form-grid">
            <AccountPicker
              market={market}
              accounts={accounts.isError ? [] : accounts.data?.list}
              value={accountId}
              onChange={(id) => {
                setAccountId(id);
                if (id !== undefined) setAccountError(undefined);
              }}
              error={accountError}
            />
            <div className="field bt-field-wide">
              <span className="bt-label" id="f-mode-label">{tr('create.mode')}</span>
              <div className="bt-segment" role="radiogroup" aria-labelledby="f-mode-label">
                {(['live', 'paper'] as const).map((m) => (
                  <button key={m} type="button" role="radio" aria-checked={mode === m} className="bt-segment-item" onClick={() => setMode(m)} data-testid={`mode-${m}`}>
                    {tr(`mode.${m}`)}
                  </button>
                ))}
              </div>
              <p className="field-hint">{tr(`create.modeHint.${mode}`)}</p>
            </div>
            {seats.data ? (
              <p className="field-hint bt-field-wide num" data-testid="create-seats" data-free={seats.data.free}>
                {tr('seats', { used: seats.data.used, total: seats.data.total })}{seats.data.free <= 0 ? ` · ${tr('create.seatsFull')}` : ''}
              </p>
            ) : null}
          </div>
        </fieldset>
      ) : null}
      {groups.map((g) => {
        const list = fields.filter((f) => f.group === g);
        if (!list.length) return null;
        return (
          <fieldset key={g} className="bt-fieldset">
            <legend>{t(`formGroup.${g}`)}</legend>
            <div className="bt-form-grid">
              {list.map((f) => (
                <FieldInput key={f.name} field={f} register={register} error={errorText} hint={hintOf(f)} currencies={currencies} intervals={intervals.data ?? [...INTERVALS]} />
              ))}
            </div>
          </fieldset>
        );
      })}
      {serverError ? (
        <Notice tone="error" testId="form-server-error">
          <span>{serverError.text}</span>
          {serverError.offer ? (
            <Link to={serverError.offer.to} className="bt-link" data-testid={serverError.offer.testId}>
              {t(serverError.offer.label)}
            </Link>
          ) : null}
        </Notice>
      ) : null}
      <div className="bt-sticky-action">
        <Button type="submit" block busy={busy} data-testid="create-submit">
          {robot ? tr('create.submit') : t('backtest.submit')}
        </Button>
      </div>
      {noSeat !== undefined ? <NoSeatSheet info={noSeat} onClose={() => setNoSeat(undefined)} /> : null}
      {liveToConfirm !== null && accountId !== undefined ? (
        <ConfirmSheet
          title={tr('create.confirmLiveTitle')}
          message={tr('create.confirmLiveMessage', { account: accounts.data?.list.find((a) => a.id === accountId)?.accountName ?? `#${accountId}` })}
          confirmLabel={tr('create.confirmLiveOk')}
          busy={busy}
          onClose={() => setLiveToConfirm(null)}
          onConfirm={() => void startRobot(liveToConfirm, accountId).finally(() => setLiveToConfirm(null))}
        />
      ) : null}
    </form>
  );
}

interface InputProps {
  field: FieldSpec;
  register: UseFormRegister<FormValues>;
  error: (name: string) => string | undefined;
  hint?: string;
  currencies: CurrencyItem[];
  intervals: string[];
}

function FieldInput({ field: f, register, error, hint, currencies, intervals }: InputProps) {
  const { t } = useBacktestTranslation();
  const id = `f-${f.name}`;
  const label = t(`field.${f.name}`);
  const err = error(f.name);
  const described = [err ? `${id}-err` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const foot = (
    <>
      {hint ? <p id={`${id}-hint`} className="field-hint">{hint}</p> : null}
      {err ? <p id={`${id}-err`} className="field-error" role="alert" data-testid={`${f.name}-error`}>{err}</p> : null}
    </>
  );
  const common = { id, 'aria-invalid': err ? true : undefined, 'aria-describedby': described, 'data-testid': `field-${f.name}` } as const;

  if (f.kind === 'boolean') {
    return (
      <div className="field bt-field-wide">
        <label className="check" htmlFor={id}>
          <input type="checkbox" {...common} {...register(f.name)} />
          <span>{label}</span>
        </label>
        {foot}
      </div>
    );
  }
  if (f.kind === 'distances') {
    return (
      <div className="field bt-field-wide" role="group" aria-labelledby={`${id}-label`}>
        <span id={`${id}-label`} className="bt-label">{label}</span>
        <div className="bt-slots">
          {Array.from({ length: DISTANCE_SLOTS }, (_, i) => {
            const name = slotName(f.name, i);
            const e = error(name);
            return (
              <div key={name} className="bt-slot">
                <label htmlFor={`f-${name}`} className="bt-sublabel">{t('field.order', { n: i + 1 })}</label>
                <input id={`f-${name}`} className="input num" inputMode="decimal" autoComplete="off" aria-invalid={e ? true : undefined} data-testid={`field-${name}`} {...register(name)} />
                {e ? <p className="field-error" role="alert" data-testid={`${name}-error`}>{e}</p> : null}
              </div>
            );
          })}
        </div>
        {foot}
      </div>
    );
  }
  let control;
  if (f.kind === 'symbol' && currencies.length) {
    control = (
      <select className="input" {...common} {...register(f.name)}>
        {currencies.map((c) => (
          <option key={c.symbol} value={c.symbol}>{c.label ?? c.symbol}</option>
        ))}
      </select>
    );
  } else if (f.kind === 'enum' || f.kind === 'timezone') {
    const options = f.name === 'interval' ? intervals : f.kind === 'timezone' ? TIMEZONES : f.options ?? [];
    const text = (o: string) => (f.name === 'side' || f.name === 'unit' ? t(`option.${o}`) : o);
    control = (
      <select className="input" {...common} {...register(f.name)}>
        {f.optional && f.defaultValue === undefined ? <option value="">{t('fieldHint.optional')}</option> : null}
        {options.map((o) => (
          <option key={o} value={o}>{text(o)}</option>
        ))}
      </select>
    );
  } else {
    const type = f.kind === 'date' ? 'date' : f.kind === 'time' ? 'time' : 'text';
    const numeric = f.kind === 'number' || f.kind === 'integer';
    const placeholder = f.defaultValue !== undefined && numeric ? t('option.default', { value: typeof f.defaultValue === 'number' || typeof f.defaultValue === 'string' ? String(f.defaultValue) : '' }) : f.optional && numeric ? t('fieldHint.optional') : undefined;
    control = (
      <input
        className={`input${numeric ? ' num' : ''}`}
        type={type}
        inputMode={f.kind === 'integer' ? 'numeric' : numeric ? 'decimal' : undefined}
        autoComplete="off"
        placeholder={placeholder}
        {...common}
        {...register(f.name)}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      {foot}
    </div>
  );
}
