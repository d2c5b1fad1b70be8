/**
 * PDF text items → lines → paragraphs. pdf.js gives each page's text as runs
 * (`str`, position, size, `hasEOL`) in content-stream order, which for the
 * documents we measured is reading order, two-column papers included (see
 * `bench/suite_pdf.ts`). Here runs become lines, lines become paragraphs at
 * blank lines, wide gaps and size changes, and a word hyphenated at a line
 * end is joined again.
 * @module
 */

/** The part of a pdf.js text item this stage reads. */
export interface TextRun {
  str: string;
  /** `[a, b, c, d, x, y]`: scale and position in user space. */
  transform: number[];
  height: number;
  hasEOL: boolean;
}

/** One line of a page. */
export interface Line {
  text: string;
  /** Baseline, user space (grows upwards). */
  y: number;
  /** Left edge of the first run. */
  x: number;
  /** Font size of the line's longest run. */
  size: number;
}

/** A paragraph (or heading candidate) of a page. */
export interface Paragraph {
  text: string;
  size: number;
  lines: number;
}

/** A run this far off the line's baseline (in font sizes) starts a new line. */
const NEW_LINE_SHIFT = 0.5;
/** A gap between baselines this many times the expected one starts a paragraph. */
const PARAGRAPH_GAP = 1.5;
/** Line spacing assumed for a line's font size, as a share of it (large titles). */
const LEADING = 1.2;
/** Font sizes further apart than this share start a new paragraph. */
const SIZE_CHANGE = 0.15;
/** A word cut at a line end: a letter then a hyphen. */
const HYPHEN_END = /\p{L}-$/u;
const LOWER_START = /^\p{Ll}/u;
const SPACES = /\s+/g;

function sizeOf(run: TextRun): number {
  const [, , c = 0, d = 0] = run.transform;
  return run.height || Math.hypot(c, d);
}

/** Groups a page's runs into lines; empty lines are kept as paragraph breaks. */
export function toLines(runs: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let open: (Line & { longest: number }) | null = null;
  const close = () => {
    if (open) {
      lines.push({
        text: open.text.replace(SPACES, " ").trim(),
        y: open.y,
        x: open.x,
        size: open.size,
      });
    }
    open = null;
  };
  for (const run of runs) {
    const x = run.transform[4] ?? 0;
    const y = run.transform[5] ?? 0;
    const size = sizeOf(run);
    if (open !== null && run.str.trim() !== "") {
      const line: Line & { longest: number } = open;
      if (Math.abs(y - line.y) > NEW_LINE_SHIFT * Math.max(size, line.size, 1)) close();
    }
    if (open === null) open = { text: "", y, x, size, longest: 0 };
    const current: Line & { longest: number } = open;
    current.text += run.str;
    if (run.str.trim().length > current.longest) {
      current.longest = run.str.trim().length;
      current.size = size;
    }
    if (run.hasEOL) close();
  }
  close();
  return lines;
}

/**
 * The usual distance between baselines of lines within a paragraph: the lower
 * quartile of all gaps, since on a page of short paragraphs the gaps between
 * paragraphs can be half of all gaps.
 */
function usualGap(lines: readonly Line[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = lines[i - 1]!.y - lines[i]!.y;
    if (gap > 0 && lines[i]!.text !== "" && lines[i - 1]!.text !== "") gaps.push(gap);
  }
  if (gaps.length === 0) return 0;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 4)]!;
}

/** Appends a line to a paragraph's text, joining a word hyphenated at the line end. */
export function joinLine(text: string, line: string): string {
  if (text === "") return line;
  if (HYPHEN_END.test(text) && LOWER_START.test(line)) return text.slice(0, -1) + line;
  return `${text} ${line}`;
}

/** Groups lines into paragraphs: at blank lines, wide gaps, jumps back up, size changes. */
export function toParagraphs(lines: readonly Line[]): Paragraph[] {
  const gap = usualGap(lines);
  const out: Paragraph[] = [];
  let open: Paragraph | null = null;
  let prev: Line | null = null;
  for (const line of lines) {
    if (line.text === "") {
      if (open) out.push(open);
      open = null;
      prev = null;
      continue;
    }
    // The page's usual gap is the body's; larger type is set wider apart.
    const expected = Math.max(gap, LEADING * Math.min(line.size, prev?.size ?? 0));
    const breaks = open === null || prev === null ||
      (expected > 0 && prev.y - line.y > PARAGRAPH_GAP * expected) ||
      prev.y - line.y < -gap ||
      Math.abs(line.size - prev.size) > SIZE_CHANGE * Math.max(line.size, prev.size);
    if (breaks) {
      if (open) out.push(open);
      open = { text: line.text, size: line.size, lines: 1 };
    } else if (open) {
      open.text = joinLine(open.text, line.text);
      open.lines += 1;
    }
    prev = line;
  }
  if (open) out.push(open);
  return out;
}
