// The lines of an ownership ledger (ledger.ts), one JSON object each, and what a ledger still owns once read: the same
// reading for the children reaper (a script of its own, so this file imports nothing) and for the sweep of ledgers
// that killed runs left.

/** A process group or temporary path owned (`group`, `path`), or one given up (`released`, `removed`). */
export type LedgerEntry = { group: number } | { released: number } | { path: string } | { removed: string };

/** What a ledger owns: process groups, and temporary paths rtbench named. */
export interface Owned {
  readonly groups: number[];
  readonly paths: string[];
}

/** Only paths rtbench names are ever removed: a temporary directory or file it made, never anything else. */
const RTBENCH_NAMED = /\/(\.?rtbench|\.[a-z]+)-[^/]*$/;

/** The entry as one ledger line. */
export function ledgerLine(entry: LedgerEntry): string {
  return JSON.stringify(entry) + "\n";
}

/** What a ledger's `text` still owns after every line in order; a line that is not an entry is passed over. */
export function owned(text: string): Owned {
  const groups = new Set<number>();
  const paths = new Set<string>();
  for (const line of text.split("\n")) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (Number.isInteger(entry?.group) && (entry.group as number) > 1) groups.add(entry.group as number);
    if (typeof entry?.released === "number") groups.delete(entry.released);
    if (typeof entry?.path === "string" && entry.path.startsWith("/") && RTBENCH_NAMED.test(entry.path)) {
      paths.add(entry.path);
    }
    if (typeof entry?.removed === "string") paths.delete(entry.removed);
  }
  return { groups: [...groups], paths: [...paths] };
}
