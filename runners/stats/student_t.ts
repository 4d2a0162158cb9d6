/**
 * Student's t distribution for any positive real degrees of freedom: the
 * two-sided tail probability and its quantile, from the regularized
 * incomplete beta function. The one source of t quantiles in rtbench:
 * confidence intervals of summaries and Welch's test both use it.
 *
 * @module
 */

// Continued fraction of the regularized incomplete beta function (modified Lentz).
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - (a + b) * x / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

// Lanczos approximation (g = 7, n = 9), accurate to ~1e-15 for positive arguments.
const LANCZOS = [
  0.99999999999980993,
  676.5203681218851,
  -1259.1392167224028,
  771.32342877765313,
  -176.61502916214059,
  12.507343278686905,
  -0.13857109526572012,
  9.9843695780195716e-6,
  1.5056327351493116e-7,
];

function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < 9; i++) sum += LANCZOS[i] / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

function incompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast only on one side of the mean; use the symmetry otherwise.
  return x < (a + 1) / (a + b + 2)
    ? front * betaContinuedFraction(a, b, x) / a
    : 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

/**
 * Two-sided tail probability of Student's t: P(|T| ≥ |t|) with `df` degrees
 * of freedom (any positive real).
 *
 * @example
 * ```ts
 * import { tTwoSidedP } from "./student_t.ts";
 * console.log(tTwoSidedP(4.303, 2).toFixed(3)); // "0.050"
 * ```
 */
export function tTwoSidedP(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`Degrees of freedom must be > 0, got ${df}`);
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return incompleteBeta(df / 2, 0.5, df / (df + t * t));
}

/**
 * The quantile of Student's t with `df` degrees of freedom (any positive
 * real) at two-sided level `1 - alpha`: the q with P(|T| ≥ q) = alpha.
 *
 * @example
 * ```ts
 * import { tQuantile } from "./student_t.ts";
 * console.log(tQuantile(10, 0.05).toFixed(3)); // "2.228"
 * ```
 */
export function tQuantile(df: number, alpha = 0.05): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  let low = 0;
  let high = 1;
  while (tTwoSidedP(high, df) > alpha) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2;
    if (tTwoSidedP(mid, df) > alpha) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
