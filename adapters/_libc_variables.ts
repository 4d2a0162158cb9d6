/**
 * The variables known to change every runtime alike, which no one adapter holds: the C library's and its
 * loader's (glibc's manual, ld.so(8)), read by every runtime's process, and `TZ`.
 *
 * @module
 */

import type { RuntimeVariable } from "../runners/platform/mod.ts";

/** Variables of the C library, its loader and the time zone: every runtime reads them. */
export const LIBC_VARIABLES: readonly RuntimeVariable[] = [
  {
    name: "MALLOC_*",
    changes: "every runtime (glibc)",
    effect: "malloc's arenas and thresholds",
    example: "MALLOC_ARENA_MAX=1",
  },
  {
    name: "GLIBC_TUNABLES",
    changes: "every runtime (glibc)",
    effect: "glibc's tunables: malloc, CPU features",
    example: "glibc.malloc.arena_max=1",
  },
  {
    name: "LD_PRELOAD",
    changes: "every runtime",
    effect: "libraries loaded into every process (another allocator)",
    example: "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
  },
  {
    name: "LD_LIBRARY_PATH",
    changes: "every runtime",
    effect: "which shared libraries (OpenSSL, libstdc++) are loaded",
    example: "/opt/lib",
  },
  { name: "LD_BIND_NOW", changes: "every runtime", effect: "every symbol bound at start", example: "1" },
  // The time zone: POSIX's, read by the C library and by every runtime's own time code
  { name: "TZ", changes: "every runtime", effect: "the time zone of Date and Intl", example: "America/New_York" },
];
