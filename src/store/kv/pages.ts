/**
 * What Quarry remembers of each page it read, for conditional re-fetch:
 * `["page", sha256(canonical URL)]` → archive id + ETag / Last-Modified.
 * @module
 */
import type { Validators } from "../../pipeline/types.ts";
import { canonicalUrl } from "../../text/url.ts";
import { sha256Hex } from "./cache_key.ts";

/** One remembered page. */
export interface PageRecord {
  archiveId: string;
  validators: Validators;
  fetchedAt: string;
}

/** Page records in KV. */
export interface PageStore {
  /** Records of the URLs that have one. */
  getMany(urls: string[]): Promise<Map<string, PageRecord>>;
  set(url: string, record: PageRecord): Promise<void>;
}

async function key(url: string): Promise<Deno.KvKey> {
  return ["page", await sha256Hex(canonicalUrl(url))];
}

/** True when a response carried something to revalidate with. */
export function hasValidators(v: Validators | undefined): v is Validators {
  return !!v && (v.etag !== undefined || v.lastModified !== undefined);
}

/** A page store over Deno KV. */
export function kvPages(kv: Deno.Kv): PageStore {
  return {
    async getMany(urls) {
      const out = new Map<string, PageRecord>();
      const keys = await Promise.all(urls.map(key));
      // getMany takes at most 10 keys.
      for (let i = 0; i < keys.length; i += 10) {
        const entries = await kv.getMany<PageRecord[]>(keys.slice(i, i + 10));
        entries.forEach((e, j) => {
          if (e.value) out.set(urls[i + j]!, e.value);
        });
      }
      return out;
    },
    async set(url, record) {
      await kv.set(await key(url), record);
    },
  };
}
