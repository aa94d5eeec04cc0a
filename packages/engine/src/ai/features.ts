// Causal features of the AI indicator: row i uses candles 0..i only (known at the close of bar i).
import type { Candles } from '../types';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const RETURN_LAGS = [1, 3, 6, 12, 24] as const;
const RSI_PERIOD = 14;
const ATR_PERIOD = 14;
const FAST_EMA = 20;
const SLOW_EMA = 50;
const BB_PERIOD = 20;
const BB_DEV = 2;
const VOLUME_PERIOD = 20;

export const FEATURE_NAMES = [
  ...RETURN_LAGS.map((lag) => `return${lag}`),
  'rsi',
  'emaFastDistance',
  'emaSlowDistance',
  'bollingerPercentB',
  'volumeZ',
  'hourSin',
  'hourCos',
] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;
/** Rows before this index have incomplete features (indicator warm-up). */
export const FEATURE_WARMUP = SLOW_EMA;

/**
 * Row-major n × FEATURE_COUNT matrix; rows < FEATURE_WARMUP are NaN.
 * Returns are log returns scaled by the ATR-relative volatility so the scale is comparable
 * across instruments; distances are in ATRs.
 */
export function computeFeatures(c: Candles): Float64Array {
  const n = c.length;
  const k = FEATURE_COUNT;
  const out = new Float64Array(n * k).fill(NaN);
  const { close, high, low, volume, time } = c;
  const fastAlpha = 2 / (FAST_EMA + 1);
  const slowAlpha = 2 / (SLOW_EMA + 1);
  let emaFast = close[0];
  let emaSlow = close[0];
  let avgGain = 0;
  let avgLoss = 0;
  let atr = 0;
  let bbSum = 0;
  let bbSumSq = 0;
  let volSum = 0;
  let volSumSq = 0;
  for (let i = 0; i < n; i++) {
    const price = close[i];
    if (i > 0) {
      const prev = close[i - 1];
      const change = price - prev;
      const tr = Math.max(high[i] - low[i], Math.abs(high[i] - prev), Math.abs(low[i] - prev));
      // Wilder smoothing, seeded with a running mean during the first period.
      const w = i < RSI_PERIOD ? 1 / i : 1 / RSI_PERIOD;
      avgGain += (Math.max(change, 0) - avgGain) * w;
      avgLoss += (Math.max(-change, 0) - avgLoss) * w;
      const wa = i < ATR_PERIOD ? 1 / i : 1 / ATR_PERIOD;
      atr += (tr - atr) * wa;
      emaFast += (price - emaFast) * fastAlpha;
      emaSlow += (price - emaSlow) * slowAlpha;
    }
    bbSum += price;
    bbSumSq += price * price;
    volSum += volume[i];
    volSumSq += volume[i] * volume[i];
    if (i >= BB_PERIOD) {
      const old = close[i - BB_PERIOD];
      bbSum -= old;
      bbSumSq -= old * old;
    }
    if (i >= VOLUME_PERIOD) {
      const old = volume[i - VOLUME_PERIOD];
      volSum -= old;
      volSumSq -= old * old;
    }
    if (i < FEATURE_WARMUP) continue;
    const row = i * k;
    const relAtr = atr > 0 ? atr / price : 1e-12;
    let j = 0;
    for (const lag of RETURN_LAGS) out[row + j++] = Math.log(price / close[i - lag]) / (relAtr * Math.sqrt(lag));
    const rs = avgLoss > 0 ? avgGain / avgLoss : avgGain > 0 ? Infinity : 1;
    const rsi = 100 - 100 / (1 + rs);
    out[row + j++] = (rsi - 50) / 50;
    const safeAtr = atr > 0 ? atr : 1e-12;
    out[row + j++] = clampFeature((price - emaFast) / safeAtr);
    out[row + j++] = clampFeature((price - emaSlow) / safeAtr);
    const mean = bbSum / BB_PERIOD;
    const sd = Math.sqrt(Math.max(bbSumSq / BB_PERIOD - mean * mean, 0));
    out[row + j++] = sd > 0 ? clampFeature((price - (mean - BB_DEV * sd)) / (2 * BB_DEV * sd)) : 0.5;
    const vMean = volSum / VOLUME_PERIOD;
    const vSd = Math.sqrt(Math.max(volSumSq / VOLUME_PERIOD - vMean * vMean, 0));
    out[row + j++] = vSd > 0 ? clampFeature((volume[i] - vMean) / vSd) : 0;
    const hour = (((time[i] % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
    out[row + j++] = Math.sin((2 * Math.PI * hour) / 24);
    out[row + j++] = Math.cos((2 * Math.PI * hour) / 24);
  }
  for (let i = FEATURE_WARMUP * k; i < out.length; i++) out[i] = clampFeature(out[i]);
  return out;
}

/** Keeps outliers (gaps, zero-ATR stretches) from dominating the fit. */
function clampFeature(x: number): number {
  if (Number.isNaN(x)) return 0;
  return x > 20 ? 20 : x < -20 ? -20 : x;
}
