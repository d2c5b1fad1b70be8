import { startFixtureWeb } from "../tests/support/fixture_web.ts";
import { runQuarry, tempHome } from "../tests/support/run_quarry.ts";
Deno.test("d", async () => {
  const web = await startFixtureWeb(); const home = await tempHome();
  const url = `${web.origin}/pdf/etag/report.pdf`;
  const r = await runQuarry(["fetch", url, "--json"], { home });
  console.log(JSON.stringify((r.json as any).results[0].archive_id));
  const s = await runQuarry(["archive", "show", (r.json as any).results[0].archive_id, "--json"], { home });
  console.log(s.stdout.slice(0, 1500));
  await web.close();
});
