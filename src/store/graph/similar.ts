/**
 * Near-duplicate detection with MinHash over word shingles, and
 * locality-sensitive hashing (LSH) bands so that a new document is compared
 * only with the few archived documents likely to resemble it.
 * @module
 */
import { queryTokens } from "../archive/query.ts";

/** How documents are compared. */
export interface SimilarityConfig {
  /** Words per shingle. @default {5} */
  shingleSize: number;
  /** Hash functions in a signature; must equal bands × rows. @default {64} */
  hashes: number;
  /** LSH bands; two documents sharing one band are compared. @default {16} */
  bands: number;
  /** Estimated Jaccard similarity from which two documents are linked. @default {0.5} */
  threshold: number;
  /** Documents with fewer words are never linked: a few words say little. @default {40} */
  minWords: number;
}

/** Defaults of {@linkcode SimilarityConfig}. */
export const DEFAULT_SIMILARITY_CONFIG: SimilarityConfig = {
  shingleSize: 5,
  hashes: 64,
  bands: 16,
  threshold: 0.5,
  minWords: 40,
};

/** Confidence of a `similar` link is its similarity, kept below that of an explicit citation. */
export const MAX_SIMILAR_CONFIDENCE = 0.99;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Fixed seeds so signatures stored in the archive stay comparable across runs. */
const SEED_A = 0x9e3779b1;
const SEED_B = 0x85ebca77;

function fnv1a(text: string, seed = FNV_OFFSET): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/** A 32-bit mix (murmur3 finaliser), so nearby inputs give unrelated outputs. */
function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The MinHash signature of a text, or `undefined` when it is too short to
 * compare. Two signatures agree on a fraction of positions that estimates the
 * Jaccard similarity of the texts' shingle sets.
 */
export function minhashSignature(
  text: string,
  config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG,
): Uint32Array | undefined {
  const words = queryTokens(text);
  if (words.length < Math.max(config.minWords, config.shingleSize)) return undefined;
  const shingles = new Set<number>();
  for (let i = 0; i + config.shingleSize <= words.length; i++) {
    shingles.add(fnv1a(words.slice(i, i + config.shingleSize).join(" ")));
  }
  const signature = new Uint32Array(config.hashes).fill(0xffffffff);
  for (const shingle of shingles) {
    for (let k = 0; k < config.hashes; k++) {
      const h = mix(shingle ^ Math.imul(k + 1, SEED_A) ^ Math.imul(k, SEED_B));
      if (h < signature[k]!) signature[k] = h;
    }
  }
  return signature;
}

/** Estimated Jaccard similarity of two signatures: the share of equal positions. */
export function signatureSimilarity(a: Uint32Array, b: Uint32Array): number {
  const n = Math.min(a.length, b.length);
  if (n === 0) return 0;
  let same = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) same++;
  return same / n;
}

/**
 * One key per LSH band: each band's hash values folded into 32 bits and
 * tagged with the band number, so equal keys mean an identical band.
 */
export function bandKeys(
  signature: Uint32Array,
  config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG,
): number[] {
  const rows = Math.floor(signature.length / config.bands);
  const keys: number[] = [];
  for (let band = 0; band < config.bands; band++) {
    let h = FNV_OFFSET;
    for (let r = 0; r < rows; r++) h = mix(h ^ signature[band * rows + r]!);
    // band < 2^16 and h < 2^32: the key stays an exact integer in a double.
    keys.push(band * 2 ** 32 + h);
  }
  return keys;
}

/** Stores a signature as bytes, and reads it back. */
export function signatureToBytes(signature: Uint32Array): Uint8Array {
  return new Uint8Array(signature.buffer.slice(0));
}

/** Reads a signature stored by {@linkcode signatureToBytes}. */
export function signatureFromBytes(bytes: Uint8Array): Uint32Array {
  const copy = new Uint8Array(bytes);
  return new Uint32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
}
