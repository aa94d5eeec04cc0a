// Presets of a recommendation as the page shows them.
import type { RecommendPreset } from '@lq/contracts';

/**
 * Presets with the same figures in both windows are one choice: shown once, under every tier's
 * name it carries (Conservative · Aggressive).
 */
export function distinctPresets(presets: readonly RecommendPreset[]): { preset: RecommendPreset; tiers: RecommendPreset['tier'][] }[] {
  const out: { key: string; preset: RecommendPreset; tiers: RecommendPreset['tier'][] }[] = [];
  for (const p of presets) {
    const key = JSON.stringify([p.inSample, p.outOfSample, p.searched]);
    const same = out.find((o) => o.key === key);
    if (!same) out.push({ key, preset: p, tiers: [p.tier] });
    else {
      same.tiers.push(p.tier);
      // The balanced preset names the card it shares (its buttons keep their names).
      if (p.tier === 'balanced') same.preset = p;
    }
  }
  return out.map(({ preset, tiers }) => ({ preset, tiers }));
}
