// Requests one connection has sent and not yet had answered, oldest first, in a ring that grows when full: what each
// was (its index in the rotation, or its sequence number), when its latency starts (when it went out in the closed
// model, when it was due in the open model), and its phase of the schedule.

/** The requests in flight on one connection; see the module comment. */
export class InFlight {
  #index: Int32Array;
  #at: Float64Array;
  #phase: Int32Array;
  #head = 0;
  #length = 0;
  /** The request {@linkcode InFlight.shift} removed last: its index, start of latency and phase. */
  index = 0;
  at = 0;
  phase = 0;

  /** A ring with room for `capacity` requests before it grows. */
  constructor(capacity: number) {
    const n = Math.max(1, capacity);
    this.#index = new Int32Array(n);
    this.#at = new Float64Array(n);
    this.#phase = new Int32Array(n);
  }

  /** Requests in flight. */
  get length(): number {
    return this.#length;
  }

  /** When the oldest request's latency started, or NaN when none is in flight. */
  get oldestAt(): number {
    return this.#length === 0 ? NaN : this.#at[this.#head];
  }

  /** The index (rotation index or sequence number) of the oldest request (0 when none is in flight). */
  get indexOfOldest(): number {
    return this.#length === 0 ? 0 : this.#index[this.#head];
  }

  /** Whether a request of index `index` is in flight. */
  contains(index: number): boolean {
    for (let i = 0; i < this.#length; i++) {
      if (this.#index[(this.#head + i) % this.#index.length] === index) return true;
    }
    return false;
  }

  /** The schedule phase of the oldest request (0 when none is in flight). */
  get phaseOfOldest(): number {
    return this.#length === 0 ? 0 : this.#phase[this.#head];
  }

  /** Adds a request. */
  push(index: number, at: number, phase: number): void {
    if (this.#length === this.#index.length) this.#grow();
    let slot = this.#head + this.#length;
    if (slot >= this.#index.length) slot -= this.#index.length;
    this.#index[slot] = index;
    this.#at[slot] = at;
    this.#phase[slot] = phase;
    this.#length++;
  }

  /** Removes the oldest request into `index`, `at` and `phase`; false when none is in flight. */
  shift(): boolean {
    if (this.#length === 0) return false;
    const h = this.#head;
    this.index = this.#index[h];
    this.at = this.#at[h];
    this.phase = this.#phase[h];
    this.#head = h + 1 === this.#index.length ? 0 : h + 1;
    this.#length--;
    return true;
  }

  /** Calls `fn` for every request in flight, oldest first. */
  forEach(fn: (at: number, phase: number, index: number) => void): void {
    for (let i = 0; i < this.#length; i++) {
      const slot = (this.#head + i) % this.#index.length;
      fn(this.#at[slot], this.#phase[slot], this.#index[slot]);
    }
  }

  /** Forgets every request (the connection they were sent on is gone). */
  clear(): void {
    this.#head = 0;
    this.#length = 0;
  }

  #grow(): void {
    const n = this.#index.length * 2;
    const index = new Int32Array(n), at = new Float64Array(n), phase = new Int32Array(n);
    for (let i = 0; i < this.#length; i++) {
      const slot = (this.#head + i) % this.#index.length;
      index[i] = this.#index[slot];
      at[i] = this.#at[slot];
      phase[i] = this.#phase[slot];
    }
    this.#index = index;
    this.#at = at;
    this.#phase = phase;
    this.#head = 0;
  }
}
