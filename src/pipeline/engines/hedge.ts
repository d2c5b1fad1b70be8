/**
 * Running engines in a hedged race: start the first; when it fails, comes
 * back empty, or has not answered within the hedge delay, start the next as
 * well; stop when enough engines have given results, and cancel the rest.
 * With `want = 1` this is the hedged chain; with `want = K`, K answers for
 * rank fusion, a failed engine replaced by the next.
 * @module
 */
import type { Outcome } from "./ask.ts";

/** What the race needs. */
export interface RaceDeps {
  /** Resolves after `ms`; rejects or never resolves once `signal` aborts. */
  timer: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Wait before starting the next engine while the running ones are silent. */
  hedgeDelayMs: number;
  /** The caller's signal: aborting it cancels every engine. */
  signal?: AbortSignal | undefined;
}

/** How the race ended. */
export interface RaceResult {
  /** Outcomes with results, in the order they arrived (at most `want`). */
  winners: Outcome[];
  /** Every outcome, in the order the engines were started. */
  outcomes: Outcome[];
}

type Settled = { i: number; outcome: Outcome };

/**
 * The hedge timer on the wall clock. The hedge waits for the network, so it
 * runs on real time even where a test clock fakes the polite delays.
 */
export function wallTimer(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const id = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(id);
      reject(signal.reason);
    }, { once: true });
  });
}

/**
 * Races `count` engines, `run(i, signal)` starting the i-th. `want` engines
 * start at once; each failure or silence past the hedge delay starts one more.
 */
export async function race(
  count: number,
  want: number,
  run: (i: number, signal: AbortSignal) => Promise<Outcome>,
  deps: RaceDeps,
): Promise<RaceResult> {
  const controllers: AbortController[] = [];
  const outcomes: (Outcome | undefined)[] = [];
  const running = new Map<number, Promise<Settled>>();
  const winners: Outcome[] = [];
  let next = 0;
  const launch = () => {
    const i = next++;
    const ac = new AbortController();
    controllers[i] = ac;
    const signal = deps.signal ? AbortSignal.any([ac.signal, deps.signal]) : ac.signal;
    running.set(i, run(i, signal).then((outcome) => ({ i, outcome })));
  };
  while (next < Math.min(want, count)) launch();
  while (running.size > 0 && winners.length < want) {
    deps.signal?.throwIfAborted();
    const tick = new AbortController();
    const hedge = next < count
      ? deps.timer(deps.hedgeDelayMs, tick.signal).then(
        () => "hedge" as const,
        () => "stop" as const,
      )
      : new Promise<"stop">(() => {});
    const first = await Promise.race([...running.values(), hedge]);
    tick.abort();
    if (first === "hedge") {
      launch();
      continue;
    }
    if (first === "stop") continue;
    running.delete(first.i);
    outcomes[first.i] = first.outcome;
    if (first.outcome.kept.length > 0) winners.push(first.outcome);
    else if (next < count) launch();
  }
  deps.signal?.throwIfAborted();
  for (const i of running.keys()) controllers[i]!.abort();
  // Let the cancelled ones settle, so nothing runs on after the answer.
  const late = await Promise.all(running.values());
  for (const { i, outcome } of late) outcomes[i] = outcome;
  return { winners, outcomes: outcomes.filter((o): o is Outcome => o !== undefined) };
}
