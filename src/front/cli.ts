/**
 * The CLI face, generated from the operation registry with commander: each
 * op's zod schema gives its arguments, options, help and validation.
 * @module
 */
import { Command, CommanderError, Option } from "commander";
import type { z } from "zod";
import { VERSION } from "../config.ts";
import { causeText, exitCodeFor, QuarryError, toQuarryError } from "../errors.ts";
import { type FieldInfo, fieldsOf } from "../ops/schema_info.ts";
import type { OpContext, Operation } from "../ops/types.ts";
import type { CatalogEntry } from "../ops/catalog.ts";
import { type Envelope, errorBody, failure } from "../envelope.ts";
import { cacheNote, renderGeneric } from "../render/markdown.ts";

/** How the CLI was asked to report progress. */
export interface ContextOptions {
  /** `--progress`: progress lines on stderr even when it is not a terminal. */
  progress?: boolean;
}

/** Where the CLI writes and how it gets its context. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Builds the operation context; called only when an operation runs. */
  context(options?: ContextOptions): OpContext;
  /** Print the stack behind an INTERNAL error (QUARRY_DEBUG=1), not just its first line. */
  debug?: boolean;
}

/** Extra subcommands that are not operations (`serve`, `mcp`). */
export interface ExtraCommand {
  register(program: Command, setExit: (code: number) => void): void;
}

/** An extra subcommand listed by name and loaded only when it runs. */
export interface LazyExtra {
  name: string;
  summary: string;
  load(): Promise<ExtraCommand>;
}

/** An operation, or its catalog entry when it is not loaded. */
export type OpOrEntry = Operation | CatalogEntry;

function isLoaded(op: OpOrEntry): op is Operation {
  return "run" in op;
}

const NEGATED = /^no[A-Z]/;

/** `maxTokens` → `max-tokens`. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function describe(info: FieldInfo): string {
  const def = info.defaultValue;
  const shown = def === undefined || def === false ? "" : ` (default: ${JSON.stringify(def)})`;
  return `${info.description}${shown}`;
}

function optionFor(info: FieldInfo, short: string | undefined): Option {
  const flag = kebab(info.name);
  const head = short ? `-${short}, ` : "";
  if (info.kind === "boolean") return new Option(`${head}--${flag}`, describe(info));
  const option = new Option(
    `${head}--${flag} <${info.kind === "number" ? "n" : "value"}>`,
    describe(info),
  );
  if (info.kind === "number") option.argParser((v) => Number(v));
  if (info.kind === "array") {
    option.argParser((v, prev: string[] | undefined) => [...(prev ?? []), ...v.split(",")]);
  }
  if (info.kind === "enum" && info.values) option.choices(info.values);
  return option;
}

/**
 * The last positional, when it is text, takes every remaining word, so
 * `quarry search how do tides work` needs no quotes.
 */
function joinsWords(op: Operation, index: number, info: FieldInfo): boolean {
  return index === (op.positionals ?? []).length - 1 && info.kind === "string";
}

/** Collects commander's parsed values into the op's input object. */
function collectInput(op: Operation, cmd: Command, fields: FieldInfo[]): Record<string, unknown> {
  const opts = cmd.opts();
  const out: Record<string, unknown> = {};
  const positional = new Set((op.positionals ?? []).map((p) => p.field));
  (op.positionals ?? []).forEach((p, i) => {
    const value: unknown = cmd.processedArgs[i];
    if (Array.isArray(value) && fields.find((f) => f.name === p.field)?.kind === "string") {
      if (value.length > 0) out[p.field] = value.join(" ");
    } else if (value !== undefined) out[p.field] = value;
  });
  for (const f of fields) {
    if (positional.has(f.name)) continue;
    if (NEGATED.test(f.name)) {
      const key = f.name[2]!.toLowerCase() + f.name.slice(3);
      if (opts[key] === false) out[f.name] = true;
      continue;
    }
    if (opts[f.name] !== undefined) out[f.name] = opts[f.name];
  }
  return out;
}

/** Turns zod issues into one BAD_INPUT error naming the flags. */
export function inputError(error: z.ZodError, op: Operation): QuarryError {
  const positional = new Set((op.positionals ?? []).map((p) => p.field));
  const parts = error.issues.map((issue) => {
    const field = String(issue.path[0] ?? "");
    const name = positional.has(field) ? `<${field}>` : `--${kebab(field)}`;
    return field ? `${name}: ${issue.message}` : issue.message;
  });
  return new QuarryError("BAD_INPUT", `Invalid input: ${parts.join("; ")}`, {
    suggestions: [`Run \`quarry ${op.command.join(" ")} --help\` for the options`],
  });
}

function output(
  io: CliIo,
  envelope: Envelope,
  text: string | undefined,
  json: boolean,
  pretty: boolean,
): void {
  if (json) {
    io.stdout(JSON.stringify(envelope, null, pretty ? 2 : undefined) + "\n");
    return;
  }
  if (!envelope.success) {
    if (envelope.results && text) io.stdout(text);
    io.stderr(`error [${envelope.error.code}]: ${envelope.error.message}\n`);
    for (const s of envelope.error.suggestions) io.stderr(`  hint: ${s}\n`);
    return;
  }
  io.stdout(text ?? renderGeneric(envelope));
}

/** The command group for all but the last word, created on first use. */
function parentOf(program: Command, words: string[]): Command {
  let parent = program;
  for (const word of words.slice(0, -1)) {
    parent = parent.commands.find((c) => c.name() === word) ??
      parent.command(word).description(`${word} commands`);
  }
  return parent;
}

/** A command that is listed but not loaded: runCli loads what the arguments name. */
function addStub(program: Command, words: string[], summary: string): void {
  parentOf(program, words).command(words.at(-1)!).description(summary)
    .allowUnknownOption().allowExcessArguments().action(() => {
      throw new QuarryError("INTERNAL", `\`quarry ${words.join(" ")}\` was not loaded`);
    });
}

function addOperation(program: Command, op: Operation, io: CliIo, setExit: (c: number) => void) {
  const cmd = parentOf(program, op.command).command(op.command.at(-1)!).description(op.summary);
  const fields = fieldsOf(op.input);
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [i, p] of (op.positionals ?? []).entries()) {
    const info = byName.get(p.field)!;
    const name = p.variadic || joinsWords(op, i, info) ? `${p.field}...` : p.field;
    cmd.argument(info.optional ? `[${name}]` : `<${name}>`, info.description);
  }
  const positional = new Set((op.positionals ?? []).map((p) => p.field));
  for (const f of fields) {
    if (!positional.has(f.name) && !f.aliasOf) cmd.addOption(optionFor(f, op.short?.[f.name]));
  }
  cmd.option("--json", "Print the JSON envelope instead of a report");
  cmd.option("--pretty", "Indent the JSON");
  cmd.action(async () => {
    const { json = false, pretty = false } = cmd.opts();
    const parsed = op.input.safeParse(collectInput(op, cmd, fields));
    let envelope: Envelope;
    let text: string | undefined;
    let thrown: QuarryError | undefined;
    if (!parsed.success) {
      envelope = failure(op.name, inputError(parsed.error, op));
    } else {
      // A command that runs until stopped (`--watch`) reports as it goes, under a pipe too.
      const watching = (parsed.data as { watch?: unknown }).watch === true;
      const ctx = io.context({ progress: program.opts().progress === true || watching });
      try {
        envelope = await op.run(ctx, parsed.data);
      } catch (error) {
        thrown = toQuarryError(error);
        envelope = failure(op.name, thrown);
      } finally {
        await ctx.stores.close();
        await ctx.browser?.close();
      }
      if (!json && op.render && (envelope.success || envelope.results)) {
        text = op.render(envelope, parsed.data) + cacheNote(envelope);
      }
    }
    output(io, envelope, text, json, pretty);
    if (thrown) printCause(io, thrown);
    setExit(envelope.success ? 0 : exitCodeFor(envelope.error.code));
  });
}

/** The cause of an INTERNAL error on stderr, so a user can report it (the stack with QUARRY_DEBUG=1). */
export function printCause(io: Pick<CliIo, "stderr" | "debug">, error: QuarryError): void {
  const text = causeText(error, io.debug ?? false);
  if (text) io.stderr(`  ${text.replaceAll("\n", "\n  ")}\n`);
}

/**
 * Builds the commander program. Catalog entries and lazy extras are listed
 * (for `--help`) but get no options and no action: {@linkcode runCli} loads
 * the one the arguments name first.
 */
export function buildProgram(
  ops: readonly OpOrEntry[],
  io: CliIo,
  setExit: (code: number) => void,
  extras: readonly (ExtraCommand | LazyExtra)[] = [],
): Command {
  const program = new Command("quarry")
    .description("Research from the command line: search, read and remember the web")
    .version(VERSION, "-V, --version")
    .option("--progress", "Print progress lines on stderr even when it is not a terminal")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const op of ops) {
    if (isLoaded(op)) addOperation(program, op, io, setExit);
    else addStub(program, op.command, op.summary);
  }
  for (const extra of extras) {
    if ("register" in extra) extra.register(program, setExit);
    else addStub(program, [extra.name], extra.summary);
  }
  // Sub-commands inherit exit override and output settings.
  const apply = (c: Command) => {
    c.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
    c.commands.forEach(apply);
  };
  program.commands.forEach(apply);
  return program;
}

/** The leading words of the arguments, past the program's own flags: the command asked for. */
export function commandWords(args: string[]): string[] {
  const words: string[] = [];
  for (const arg of args) {
    if (arg.startsWith("-")) {
      if (words.length === 0) continue;
      break;
    }
    words.push(arg);
  }
  // `quarry help archive search` asks about `archive search`.
  return words[0] === "help" ? words.slice(1) : words;
}

function names(words: string[], command: string[]): boolean {
  return command.every((w, i) => words[i] === w);
}

/** Loads the op or extra the arguments name; everything else stays a catalog entry. */
async function loadNamed(
  args: string[],
  ops: readonly OpOrEntry[],
  extras: readonly (ExtraCommand | LazyExtra)[],
): Promise<[OpOrEntry[], (ExtraCommand | LazyExtra)[]]> {
  const words = commandWords(args);
  return [
    await Promise.all(ops.map((op) => isLoaded(op) || !names(words, op.command) ? op : op.load())),
    await Promise.all(
      extras.map((e) => "register" in e || words[0] !== e.name ? e : e.load()),
    ),
  ];
}

/**
 * Runs the CLI and returns the exit code (0 ok, 1 failure, 2 bad usage).
 * Only the operation the arguments name is loaded; no arguments print the
 * help on stdout.
 */
export async function runCli(
  args: string[],
  ops: readonly OpOrEntry[],
  io: CliIo,
  extras: readonly (ExtraCommand | LazyExtra)[] = [],
): Promise<number> {
  let code = 0;
  try {
    const [loadedOps, loadedExtras] = await loadNamed(args, ops, extras);
    const program = buildProgram(loadedOps, io, (c) => (code = c), loadedExtras);
    // No command (nothing, or only `--progress`): the list of commands, on stdout.
    if (args.every((a) => a === "--progress")) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(args, { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" || error.code === "commander.version" ||
        error.code === "commander.help"
      ) return 0;
      return 2;
    }
    const qe = toQuarryError(error);
    io.stderr(`error [${qe.code}]: ${errorBody(qe).message}\n`);
    printCause(io, qe);
    return exitCodeFor(qe.code);
  }
}
