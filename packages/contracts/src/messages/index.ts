import type { Locale } from '../locales';
import { DEFAULT_LOCALE } from '../locales';
import { WITHDRAW_STATES } from '../withdraw';
import { AGREEMENTS } from '../benefits';
import { formatMoney } from '../money';
import { splitReason } from '../robot';
import { enUS, type MessageKey, type Messages } from './en-US';
import { formatMessage } from './format';
import { fieldLabel } from './fields';
import { inID } from './in-ID';
import { jaJP } from './ja-JP';
import { thTH } from './th-TH';
import { viVN } from './vi-VN';
import { zhCN } from './zh-CN';
import { zhTW } from './zh-TW';

export type { MessageKey, Messages };
export { formatMessage };
export { FIELD_LABELS, fieldLabel, inParamOrder, PARAM_ORDER, type FieldName } from './fields';

/** Server message catalogs of every locale. */
export const MESSAGES: Record<Locale, Messages> = {
  'en-US': enUS,
  'zh-TW': zhTW,
  'th-TH': thTH,
  'vi-VN': viVN,
  'zh-CN': zhCN,
  'ja-JP': jaJP,
  in_ID: inID,
};

export const isMessageKey = (key: string): key is MessageKey =>
  Object.prototype.hasOwnProperty.call(enUS, key);

const isWithdrawStateName = (value: string) => (WITHDRAW_STATES as readonly string[]).includes(value);

/** Localized, interpolated message; falls back to the default locale, then to English, then to the key. */
const isAgreementName = (name: string) => (AGREEMENTS as readonly string[]).includes(name);

export function translate(
  locale: Locale,
  key: string,
  params?: Record<string, string | number>,
): string {
  const template =
    (MESSAGES[locale] as Record<string, string | undefined>)[key] ??
    (MESSAGES[DEFAULT_LOCALE] as Record<string, string | undefined>)[key] ??
    (enUS as Record<string, string | undefined>)[key] ??
    key;
  if (!params) return formatMessage(template, params);
  const named = { ...params };
  // A field is named as its form labels it, in this language (never `params.lotsPerGrid`).
  if (typeof named.field === 'string') named.field = fieldLabel(locale, named.field);
  // A withdrawal's state (and the states an action expects) in words of this language, never `pendingReview`.
  for (const name of ['state', 'expected'] as const) {
    const value = named[name];
    if (typeof value !== 'string') continue;
    const states = value.split(', ');
    if (states.every(isWithdrawStateName)) named[name] = states.map((state) => translate(locale, `withdraw.state.${state}`)).join(', ');
  }
  // An agreement by its title in this language, never `monthEquity`.
  if (typeof named.agreement === 'string') named.agreement = translate(locale, `agreement.${named.agreement}`);
  if (typeof named.options === 'string') named.options = named.options.split(', ').map((o) => (isAgreementName(o) ? translate(locale, `agreement.${o}`) : o)).join(', ');
  return formatMessage(template, named);
}

/** A BCP 47 tag of our locale for Intl (in_ID is id-ID), Gregorian calendar. */
const intlTag = (locale: Locale): string => `${locale === 'in_ID' ? 'id-ID' : locale}-u-ca-gregory`;

/** Lightning for reading: micro-units as stored, at least 2 decimals and no trailing zeros beyond. */
function moneyForReading(v: string | number | null | undefined): string {
  if (v === null || v === undefined || !/^-?\d+$/.test(String(v))) return v === null || v === undefined ? '' : String(v);
  return formatMoney(BigInt(v)).replace(/(\.\d\d\d*?)0+$/, '$1');
}

/**
 * A notification's one-line text in `locale`, as the app's centre words it (the notice namespace
 * holds the same texts): amounts from micro-units, dates in UTC, a robot's reason by its key's
 * label with the venue's message kept.
 */
export function notificationText(locale: Locale, kind: string, params: Record<string, string | number | null>): string {
  const reason = (): string => {
    const raw = params.reason;
    if (!kind.startsWith('robot.')) return raw === null || raw === undefined ? '' : String(raw);
    const r = splitReason(typeof raw === 'string' ? raw : null);
    if (!r) return '';
    const key = `robot.reason.${r.key ?? ''}`;
    if (!r.key || !isMessageKey(key)) return String(raw);
    const label = translate(locale, key);
    return r.detail && r.key !== 'halted' ? `${label} (${r.detail})` : label;
  };
  const date =
    typeof params.expiresAt === 'number'
      ? `${new Intl.DateTimeFormat(intlTag(locale), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(params.expiresAt)} UTC`
      : '';
  const named: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params)) if (v !== null) named[k] = v;
  return formatMessage(translate(locale, `notify.${kind}`), {
    ...named,
    robot: params.symbol ? String(params.symbol) : '',
    amount: moneyForReading(params.amount),
    balance: moneyForReading(params.balance),
    was: moneyForReading(params.was),
    reason: reason(),
    date,
  });
}
