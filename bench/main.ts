/**
 * `deno task bench`: runs every `bench/suite_*.ts` (or those named on the
 * command line), prints one table, and writes it to `bench/results/`.
 * @module
 */
import type { BenchContext, BenchSection } from "./types.ts";

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function table(sections: BenchSection[]): string {
  const lines: string[] = [];
  for (const s of sections) {
    lines.push(`## ${s.title}`, "");
    if (s.skipped) {
      lines.push(`skipped: ${s.skipped}`, "");
      continue;
    }
    lines.push("| metric | value | baseline | note |", "|---|---|---|---|");
    for (const r of s.rows) {
      lines.push(`| ${r.metric} | ${r.value} | ${r.baseline ?? ""} | ${r.note ?? ""} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

async function main(args: string[]): Promise<void> {
  const quick = args.includes("--quick");
  const only = args.filter((a) => !a.startsWith("--"));
  const corporaPath = `${root}/../shared/corpora`;
  const ctx: BenchContext = {
    corpora: (await exists(corporaPath)) ? corporaPath : undefined,
    root,
    quick,
  };
  const suites: string[] = [];
  for await (const entry of Deno.readDir(`${root}/bench`)) {
    const m = /^suite_(.+)\.ts$/.exec(entry.name);
    if (m && (only.length === 0 || only.includes(m[1]!))) suites.push(entry.name);
  }
  suites.sort();
  const sections: BenchSection[] = [];
  for (const file of suites) {
    const mod = await import(`./${file}`) as {
      run(ctx: BenchContext): Promise<BenchSection[] | BenchSection>;
    };
    console.error(`bench: ${file}…`);
    const out = await mod.run(ctx);
    const mine = Array.isArray(out) ? out : [out];
    sections.push(...mine);
    if (!quick) {
      const name = file.replace(/^suite_|\.ts$/g, "");
      await Deno.writeTextFile(
        `${root}/bench/results/${name}.md`,
        `# ${name} — ${new Date().toISOString()}\n\n${table(mine)}`,
      );
    }
  }
  const report = `# Quarry benchmarks — ${new Date().toISOString()}\n\n${table(sections)}`;
  console.log(report);
  if (!quick && only.length === 0) {
    await Deno.writeTextFile(`${root}/bench/results/latest.md`, report);
  }
}

if (import.meta.main) await main(Deno.args);
