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
  const [kv, archive] = await Promise.all([
    probe(async () => (await stores.kv()).get(["health"])),
    probe(async () => (await stores.archive()).stats()),
  ]);
  const report = { kv, archive };
  const ok = Object.values(report).every((s) => s === "ok");
  return { status: ok ? "ok" : "degraded", version, stores: report };
}
