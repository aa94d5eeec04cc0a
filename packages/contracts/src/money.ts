// Wallet money (Lightning, 1:1 USDT): exact to 6 decimals as integer micro-units — `bigint` in
// code, BIGINT in the database, a decimal string on the wire ("12.500000"). Never a JS number.

export const MONEY_DECIMALS = 6;
export const MICRO_PER_UNIT = 1_000_000n;

const MONEY_TEXT = /^(-)?(\d{1,15})(?:\.(\d{1,6}))?$/;

/**
 * "12.5" → 12_500_000n. Undefined for anything else: more than 6 decimals, exponents, spaces,
 * signs other than a leading "-", more than 15 integer digits (far beyond any wallet).
 */
export function parseMoney(text: string): bigint | undefined {
  const m = MONEY_TEXT.exec(text);
  if (!m) return undefined;
  const micro = BigInt(m[2]) * MICRO_PER_UNIT + BigInt((m[3] ?? '').padEnd(MONEY_DECIMALS, '0'));
  return m[1] ? -micro : micro;
}

/** The largest amount a BIGINT column of micro-units holds (9,223,372,036,854.775807). */
export const MONEY_MAX_MICRO = 9_223_372_036_854_775_807n;

/** 12_500_000n → "12.500000" (always 6 decimals). */
export function formatMoney(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const units = abs / MICRO_PER_UNIT;
  const fraction = (abs % MICRO_PER_UNIT).toString().padStart(MONEY_DECIMALS, '0');
  return `${negative ? '-' : ''}${units}.${fraction}`;
}
