/**
 * `GET /health`: is the server up, which version, and do its stores answer.
 * @module
 */
import { toQuarryError } from "../errors.ts";
import type { Stores } from "../store/stores.ts";

/** What `/health` reports. */
export interface HealthReport {
  status: "ok" | "degraded";
  version: string;
  /** Each store: `ok`, or `error: <why>`. */
  stores: Record<string, string>;
}

/** The archive, when this build's stores have one (opened the same lazy way as KV). */
type MaybeArchive = { archive?: () => Promise<unknown> };

async function probe(check: () => Promise<unknown>): Promise<string> {
  try {
    await check();
    return "ok";
  } catch (error) {
    return `error: ${toQuarryError(error).message}`;
  }
}

/** Opens (once) and probes each store. */
export async function healthReport(stores: Stores, version: string): Promise<HealthReport> {
  const archive = (stores as MaybeArchive).archive?.bind(stores);
  const [kv, archiveStatus] = await Promise.all([
    probe(async () => (await stores.kv()).get(["health"])),
    archive ? probe(archive) : Promise.resolve(undefined),
  ]);
  const report: Record<string, string> = { kv };
  if (archiveStatus !== undefined) report.archive = archiveStatus;
  const ok = Object.values(report).every((s) => s === "ok");
  return { status: ok ? "ok" : "degraded", version, stores: report };
}
