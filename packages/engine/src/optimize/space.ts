// Parameter spaces and their mapping from the unit cube: the optimizer samples points in [0, 1)^d
// and turns them into parameter values here.

/** One tunable parameter (the same shape as the strategy registry's search space). */
export interface ParamSpec {
  readonly name: string;
  readonly kind: 'int' | 'float' | 'choice';
  readonly min?: number;
  readonly max?: number;
  /** Sample on a log scale (needs min > 0). */
  readonly log?: boolean;
  readonly choices?: readonly (string | number | boolean)[];
}
export type ParamSpace = readonly ParamSpec[];
export type ParamValue = string | number | boolean;
export type Params = Readonly<Record<string, ParamValue>>;

/** Throws on a spec the sampler cannot use, naming the parameter. */
export function checkSpace(space: ParamSpace): void {
  for (const p of space) {
    if (p.kind === 'choice') {
      if (!p.choices || p.choices.length === 0) throw new Error(`search space: ${p.name} has no choices`);
      continue;
    }
    if (p.min === undefined || p.max === undefined || !(p.max >= p.min)) throw new Error(`search space: ${p.name} needs min ≤ max`);
    if (p.log && !(p.min > 0)) throw new Error(`search space: ${p.name} is log-scaled and needs min > 0`);
  }
}

/** Value of one parameter at unit coordinate u ∈ [0, 1). */
export function valueAt(p: ParamSpec, u: number): ParamValue {
  const x = Math.min(Math.max(u, 0), 1 - 1e-12);
  if (p.kind === 'choice') {
    const choices = p.choices!;
    return choices[Math.floor(x * choices.length)];
  }
  const min = p.min!;
  const max = p.max!;
  if (p.kind === 'int') return Math.min(max, Math.floor(min + x * (max - min + 1)));
  const v = p.log ? Math.exp(Math.log(min) + x * (Math.log(max) - Math.log(min))) : min + x * (max - min);
  return roundSignificant(v, 4);
}

export function paramsAt(space: ParamSpace, point: readonly number[]): Params {
  const out: Record<string, ParamValue> = {};
  space.forEach((p, d) => (out[p.name] = valueAt(p, point[d])));
  return out;
}

/** Presets are read by people: 0.4871 rather than 0.48712093. */
export function roundSignificant(v: number, digits: number): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  const scale = 10 ** (digits - 1 - Math.floor(Math.log10(Math.abs(v))));
  return Math.round(v * scale) / scale;
}

/** Stable identity of a parameter set (duplicates are evaluated once). */
export function paramsKey(space: ParamSpace, params: Params): string {
  return space.map((p) => String(params[p.name])).join('|');
}
