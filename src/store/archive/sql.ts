/**
 * A thin layer over `node:sqlite`: prepared statements cached per
 * connection (preparing costs more than running a small query), and nested
 * transactions that commit once at the outermost level.
 * @module
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";

/** A parameter of a statement. */
export type SqlValue = SQLInputValue;

/**
 * `node:sqlite` binds every JS number as REAL, and FTS5 ignores a REAL in
 * `MATCH … AND rowid = ?` (it returns every match). Whole numbers are bound
 * as integers instead.
 */
function bindable(params: SqlValue[]): SqlValue[] {
  return params.map((p) => typeof p === "number" && Number.isSafeInteger(p) ? BigInt(p) : p);
}

/** Runs SQL with parameters only; user text is never spliced into SQL. */
export class Sql {
  readonly db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /** The cached prepared statement of `sql`. */
  statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Every row of a query. */
  all<T>(sql: string, ...params: SqlValue[]): T[] {
    return this.statement(sql).all(...bindable(params)) as T[];
  }

  /** The first row of a query, if any. */
  get<T>(sql: string, ...params: SqlValue[]): T | undefined {
    return this.statement(sql).get(...bindable(params)) as T | undefined;
  }

  /** Runs a statement; returns the rows changed and the last inserted rowid. */
  run(sql: string, ...params: SqlValue[]): { changes: number; lastInsertRowid: number } {
    const result = this.statement(sql).run(...bindable(params));
    return { changes: Number(result.changes), lastInsertRowid: Number(result.lastInsertRowid) };
  }

  /**
   * Runs `fn` in one transaction: committed when it returns, rolled back when
   * it throws. Inside another transaction it simply joins it.
   */
  transaction<T>(fn: () => T): T {
    if (this.db.isTransaction) return fn();
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }
}
