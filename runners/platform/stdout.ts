/**
 * Writes text to stdout exactly as given (a CSV report's CRLF line ends
 * included), unlike `console.log`, which adds its own newline.
 *
 * @module
 */

/** Writes all of `text` to stdout. */
export async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}
