/**
 * What this process owns — the process groups it started and the temporary
 * paths it made, not yet stopped or removed — kept in memory and, once a
 * children reaper watches the process (`reaper.ts`), in a ledger file: one
 * JSON line per group or path owned or given up, appended as it happens, so
 * that the file says what to clean up however the process ends. The file
 * exists only while something is owned; what a ledger still owns is read by
 * `owned` in `_ledger_lines.ts`.
 *
 * @module
 */

import { type LedgerEntry, ledgerLine } from "./_ledger_lines.ts";

export type { LedgerEntry } from "./_ledger_lines.ts";

/** Lines appended before the file is rewritten with what is owned now, when that is a quarter or less of them. */
const COMPACT_AFTER_LINES = 1000;

function keyOf(entry: LedgerEntry): string {
  if ("group" in entry) return `g${entry.group}`;
  if ("released" in entry) return `g${entry.released}`;
  return `p${"path" in entry ? entry.path : entry.removed}`;
}

/**
 * A ledger of what is owned; see the module comment. Writing it never throws: a ledger that cannot be written leaves
 * the process as unprotected as before it had one.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { Ledger } from "./ledger.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const ledger = new Ledger();
 * ledger.record({ group: 4242 });
 * ledger.writeTo(`${dir}/ledger`);
 * assertEquals(Deno.readTextFileSync(`${dir}/ledger`), '{"group":4242}\n');
 * ledger.record({ released: 4242 });
 * // Nothing owned: no file.
 * assertThrows(() => Deno.statSync(`${dir}/ledger`), Deno.errors.NotFound);
 * Deno.removeSync(dir);
 * ```
 */
export class Ledger {
  readonly #live = new Map<string, LedgerEntry>();
  #file: string | null = null;
  #lines = 0;

  /** The file it is written to, or null while it is kept in memory only. */
  get file(): string | null {
    return this.#file;
  }

  /** Entries owned now. */
  get size(): number {
    return this.#live.size;
  }

  /** Writes it to `file` from now on, starting with what is owned already. */
  writeTo(file: string): void {
    this.#file = file;
    this.#rewrite();
  }

  /** Records a group or path owned, or given up; an entry that changes nothing is not written. */
  record(entry: LedgerEntry): void {
    const key = keyOf(entry);
    if ("group" in entry || "path" in entry) {
      if (this.#live.has(key)) return;
      this.#live.set(key, entry);
    } else if (!this.#live.delete(key)) return;
    if (this.#file === null) return;
    if (this.#live.size === 0 || (this.#lines >= COMPACT_AFTER_LINES && this.#lines >= 4 * this.#live.size)) {
      this.#rewrite();
    } else {
      this.#append(ledgerLine(entry));
    }
  }

  #append(text: string): void {
    try {
      Deno.writeTextFileSync(this.#file!, text, { append: true, mode: 0o600 });
      this.#lines += text.split("\n").length - 1;
    } catch {
      // Unwritable (its folder removed, a full disk): the process is as unprotected as before it had a ledger.
    }
  }

  /** Replaces the file with what is owned now (a rename, so a reader sees the old file or the new), or removes it. */
  #rewrite(): void {
    const file = this.#file!;
    this.#lines = 0;
    try {
      if (this.#live.size === 0) return Deno.removeSync(file);
      const next = `${file}.next`;
      Deno.writeTextFileSync(next, [...this.#live.values()].map(ledgerLine).join(""), { mode: 0o600 });
      Deno.renameSync(next, file);
      this.#lines = this.#live.size;
    } catch {
      // Gone already, or unwritable: see #append.
    }
  }
}

/** This process's ledger: what every process group and temporary path of rtbench's is recorded in. */
export const processLedger: Ledger = new Ledger();

/**
 * Records in {@linkcode processLedger} a process group or temporary path this process owns, or one it gave up.
 *
 * @example
 * ```ts
 * import { recordOwned } from "./ledger.ts";
 * recordOwned({ path: "/tmp/rtbench-example" });
 * recordOwned({ removed: "/tmp/rtbench-example" });
 * ```
 */
export function recordOwned(entry: LedgerEntry): void {
  processLedger.record(entry);
}
