/**
 * Measures shared by the PDF suite: text agreement with a reference (token
 * set F1, and F1 over ordered word pairs, which drops when reading order
 * differs, e.g. columns interleaved), and running `pdftotext` / Chromium.
 * @module
 */

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

function f1(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const x of a) if (b.has(x)) common++;
  return a.size + b.size === 0 ? 0 : (2 * common) / (a.size + b.size);
}

/** F1 of the two texts' sets of words. */
export function tokenSetF1(text: string, reference: string): number {
  return f1(new Set(words(text)), new Set(words(reference)));
}

/** F1 of the two texts' sets of adjacent word pairs: sensitive to reading order. */
export function bigramF1(text: string, reference: string): number {
  const pairs = (t: string) => {
    const w = words(t);
    return new Set(w.slice(1).map((x, i) => `${w[i]} ${x}`));
  };
  return f1(pairs(text), pairs(reference));
}

/** Whether a program can be run. */
export async function installed(program: string): Promise<boolean> {
  try {
    const out = await new Deno.Command(program, { args: ["-v"], stdout: "null", stderr: "null" })
      .output();
    return out.code === 0 || out.code === 99 || out.code === 1;
  } catch {
    return false;
  }
}

/** `pdftotext` of the first `pages` pages, timed; `null` text when it fails. */
export async function pdftotext(
  file: string,
  pages: number,
): Promise<{ text: string | null; ms: number }> {
  const t0 = performance.now();
  const out = await new Deno.Command("pdftotext", {
    args: ["-q", "-enc", "UTF-8", "-l", String(pages), file, "-"],
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(60_000),
  }).output().catch(() => null);
  const ms = performance.now() - t0;
  if (!out || out.code !== 0) return { text: null, ms };
  return { text: new TextDecoder().decode(out.stdout), ms };
}

/** Prints an HTML file to PDF with headless Chromium (headers and footers on, as a user gets). */
export async function printToPdf(html: string, pdf: string): Promise<boolean> {
  const out = await new Deno.Command("chromium", {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--blink-settings=imagesEnabled=false",
      `--print-to-pdf=${pdf}`,
      `file://${html}`,
    ],
    stdout: "null",
    stderr: "null",
    signal: AbortSignal.timeout(60_000),
  }).output().catch(() => null);
  return out?.code === 0;
}
