/**
 * Write access for the data directory only, without a second process.
 *
 * A `deno task` string cannot pick "QUARRY_HOME, else XDG_DATA_HOME/quarry,
 * else ~/.quarry", and spawning Deno to compute it doubled the start-up. So
 * the tasks grant write to all three places the data directory can be
 * ({@linkcode WRITE_FLAG}), and the program, before it does anything else,
 * revokes every one of them but the directory it resolved.
 * @module
 */
import type { Env } from "./config.ts";

/**
 * The `--allow-write` flag of `deno task quarry` (and `serve`, `mcp`).
 * `install` and `compile` fix the flag to one directory when they run, as
 * the environment of a later call is not known then.
 * An unset variable expands to nothing: `$QUARRY_HOME/.` is then `/.`, which
 * {@linkcode narrowWrite} revokes at once (an empty path would be refused).
 */
export const WRITE_FLAG = "--allow-write=$QUARRY_HOME/.,$XDG_DATA_HOME/quarry,$HOME/.quarry";

/** The paths {@linkcode WRITE_FLAG} grants in an environment, as the task shell expands them. */
export function writeGrants(env: Env): string[] {
  return [
    `${env.QUARRY_HOME ?? ""}/.`,
    `${env.XDG_DATA_HOME ?? ""}/quarry`,
    `${env.HOME ?? ""}/.quarry`,
  ];
}

/** An absolute path without `.`, `..` or repeated slashes. */
export function normalizePath(path: string, cwd: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === "/" ? "/" : `${dir}/`);
}

/** Deno's permission calls, passed in so tests can watch them. */
export interface WritePermissions {
  granted(path?: string): boolean;
  revoke(path: string): void;
}

const DENO_PERMISSIONS: WritePermissions = {
  granted: (path) =>
    Deno.permissions.querySync(path === undefined ? { name: "write" } : { name: "write", path })
      .state === "granted",
  revoke: (path) => void Deno.permissions.revokeSync({ name: "write", path }),
};

/**
 * Revokes write access to every granted place but `dataDir`. Acts only when
 * the process runs with the tasks' flag (every grant of `env` is held and
 * write is not granted everywhere), so other flags are left as given.
 * Deno revokes a path's ancestors with it, so a grant inside `dataDir` is
 * kept (it is covered anyway). Returns the paths revoked.
 */
export function narrowWrite(
  dataDir: string,
  env: Env,
  permissions: WritePermissions = DENO_PERMISSIONS,
  cwd: () => string = Deno.cwd,
): string[] {
  if (permissions.granted()) return [];
  const grants = writeGrants(env);
  if (!grants.every((g) => permissions.granted(g))) return [];
  const dir = normalizePath(dataDir, cwd());
  const revoked: string[] = [];
  for (const grant of grants) {
    const path = normalizePath(grant, cwd());
    if (within(path, dir) || revoked.includes(path)) continue;
    permissions.revoke(path);
    revoked.push(path);
  }
  return revoked;
}
