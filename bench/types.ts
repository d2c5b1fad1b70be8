/**
 * Shapes shared by the benchmark suites. Each `bench/suite_*.ts` exports
 * `run(ctx)` returning one section of the report.
 * @module
 */

/** What every suite gets. */
export interface BenchContext {
  /** `../shared/corpora` relative to the project, or undefined when absent. */
  corpora: string | undefined;
  /** Project root. */
  root: string;
  /** Limits the work for a quick run (`deno task bench --quick`). */
  quick: boolean;
}

/** One row of the printed table. */
export interface BenchRow {
  metric: string;
  value: string;
  /** Baseline measured in the same run, when there is one. */
  baseline?: string;
  /** Ratio value/baseline or a target check. */
  note?: string;
}

/** One section: a title and its rows, or a skip message. */
export interface BenchSection {
  title: string;
  rows: BenchRow[];
  skipped?: string;
}
