// Seeded sampling of the unit cube: Latin hypercube for the exploration phase, Gaussian
// perturbation for the local refinement around the best candidates.

/** `count` points in [0, 1)^dims, one per stratum in every dimension, strata shuffled per dimension. */
export function latinHypercube(count: number, dims: number, random: () => number): number[][] {
  const points = Array.from({ length: count }, () => new Array<number>(dims));
  for (let d = 0; d < dims; d++) {
    const strata = Array.from({ length: count }, (_, i) => i);
    for (let i = count - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [strata[i], strata[j]] = [strata[j], strata[i]];
    }
    for (let i = 0; i < count; i++) points[i][d] = (strata[i] + random()) / count;
  }
  return points;
}

/** Standard normal deviate (Box–Muller). */
export function gaussian(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * A neighbour of `center`: continuous coordinates move by N(0, sigma) and reflect at the edges;
 * categorical ones (`categorical[d]`) jump to a random value with probability `switchProbability`.
 */
export function perturb(
  center: readonly number[],
  sigma: number,
  categorical: readonly boolean[],
  random: () => number,
  switchProbability = 0.2,
): number[] {
  return center.map((c, d) => {
    if (categorical[d]) return random() < switchProbability ? random() : c;
    let x = c + sigma * gaussian(random);
    // Reflect so points near an edge are not piled onto it.
    for (let k = 0; k < 4 && (x < 0 || x >= 1); k++) x = x < 0 ? -x : 2 - x - 1e-9;
    return Math.min(Math.max(x, 0), 1 - 1e-9);
  });
}
