// Wallet amounts stay decimal strings from the server ("12.500000") to the screen: never a JS
// number, so nothing is rounded on the way.
import { parseMoney } from '@lq/contracts';

/** "1234.500000" → "1,234.50"; "0.000001" → "0.000001": at least 2 decimals, at most the 6 it has. */
export function displayMoney(text: string | null | undefined): string {
  if (text === null || text === undefined || parseMoney(text) === undefined) return '--';
  const negative = text.startsWith('-');
  const [int = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const kept = frac.replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${kept}`;
}

/** With an explicit sign for movements: "+12.50", "-3.00" (the colour is never the only cue). */
export function signedMoney(text: string): string {
  const shown = displayMoney(text);
  return text.startsWith('-') || shown === '--' ? shown : `+${shown}`;
}

/** True when `amount` (a typed decimal) is more than `available` (a server decimal). */
export function exceeds(amount: string, available: string | undefined): boolean {
  const a = parseMoney(amount.trim());
  const b = available === undefined ? undefined : parseMoney(available);
  return a !== undefined && b !== undefined && a > b;
}
