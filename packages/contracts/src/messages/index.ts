import type { Locale } from '../locales';
import { DEFAULT_LOCALE } from '../locales';
import { WITHDRAW_STATES } from '../withdraw';
import { AGREEMENTS } from '../benefits';
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
