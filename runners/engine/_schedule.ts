// The open model's clock: when each request is due. A phase runs at a constant rate or ramps linearly from one rate
// to another; arrivals are evenly spaced (`uniform`: the k-th request of a phase is due when the phase has seen k
// requests' worth of its rate) or a Poisson process (`poisson`: exponential gaps at the current rate, from a seeded
// generator so that a run can be repeated). Times are milliseconds from the start of the schedule.

import { seededRandom } from "../stats/random.ts";

/** One phase of an open-model load. */
export interface RatePhase {
  /** Length, milliseconds. */
  readonly durationMs: number;
  /** Rate at its start and at its end, per second (equal for a constant rate). */
  readonly fromRate: number;
  readonly toRate: number;
  /** Whether its requests are measured (false for the warm-up). */
  readonly measured: boolean;
}

/** How arrivals are spaced. */
export type Arrival = "uniform" | "poisson";

/** The open model's schedule: its phases (the warm-up first, not measured), arrival spacing, seed and offset. */
export interface OpenSchedule {
  readonly phases: readonly RatePhase[];
  readonly arrival: Arrival;
  readonly seed: number;
  readonly offset?: number;
}

/** The due time of every request of `phases`, in order, phase by phase; ends after the last phase. */
export class Schedule {
  readonly #phases: readonly RatePhase[];
  readonly #random: () => number;
  readonly #arrival: Arrival;
  readonly #offset: number;
  #phase = 0;
  #phaseStart = 0;
  #k = 0;
  #t = 0;

  /**
   * A schedule of `phases` with `arrival` spacing; `seed` drives Poisson gaps. Evenly spaced arrivals are shifted by
   * `offset` (0 to 1) of an interval, so that processes sharing a rate take turns instead of sending together.
   */
  constructor(phases: readonly RatePhase[], arrival: Arrival, seed: number, offset = 0) {
    this.#phases = phases;
    this.#arrival = arrival;
    this.#offset = offset;
    this.#random = seededRandom(seed);
  }

  /** The phase the last returned request belongs to. */
  get phase(): number {
    return this.#phase;
  }

  /** The next due time (ms from the start), or null when every phase is over. */
  next(): number | null {
    while (this.#phase < this.#phases.length) {
      const p = this.#phases[this.#phase];
      const offset = this.#arrival === "uniform" ? this.#uniform(p, this.#k + this.#offset) : this.#poisson(p);
      if (offset !== null && offset < p.durationMs) {
        this.#k++;
        return this.#phaseStart + offset;
      }
      this.#phaseStart += p.durationMs;
      this.#phase++;
      this.#k = 0;
      this.#t = 0;
    }
    return null;
  }

  /** When the k-th request of a phase is due: N(t) = r0·t + (r1 − r0)·t²/(2D) reaches k. */
  #uniform(p: RatePhase, k: number): number | null {
    const D = p.durationMs / 1000;
    const a = (p.toRate - p.fromRate) / (2 * D);
    const b = p.fromRate;
    if (Math.abs(a) < 1e-12) return b > 0 ? (k / b) * 1000 : null;
    const disc = b * b + 4 * a * k;
    if (disc < 0) return null;
    return ((-b + Math.sqrt(disc)) / (2 * a)) * 1000;
  }

  /** The next arrival of a Poisson process at the phase's rate at that time (thinning, so ramps from 0 work). */
  #poisson(p: RatePhase): number | null {
    const max = Math.max(p.fromRate, p.toRate);
    if (max <= 0) return null;
    while (true) {
      this.#t += (-Math.log(1 - this.#random()) / max) * 1000;
      if (this.#t >= p.durationMs) return this.#t;
      const rate = p.fromRate + (p.toRate - p.fromRate) * (this.#t / p.durationMs);
      if (this.#random() * max <= rate) return this.#t;
    }
  }
}
