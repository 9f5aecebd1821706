// Runs the account-event model (issue 24 item 1): fast-check generates runs of steps (bursts of
// actions, ./actions.ts); each run starts from a reset world; after every step the world settles
// and each user-data view must equal GET account + openOrders, have received every event the
// exchange produced (unless a documented fault lost some: then it resyncs), in causal order,
// with nothing from before a reset. A failure is shrunk by fast-check and reported with its seed.

import fc from 'fast-check';
import { perform, stepArb, type Action } from './actions.ts';
import { ModelWorld } from './world.ts';

export interface ModelOptions {
  readonly seed: number;
  /** Runs (fast-check cases), each a fresh reset world. */
  readonly runs: number;
  /** Steps per run, at most. */
  readonly stepsPerRun: number;
  readonly log?: (line: string) => void;
}

export interface ModelResult {
  readonly steps: number;
  readonly actions: number;
  readonly ms: number;
  /** View checks that were exact (state and event count) / resyncs after a documented loss. */
  readonly exactChecks: number;
  readonly resyncs: number;
}

export async function runModel(options: ModelOptions): Promise<ModelResult> {
  const world = await ModelWorld.open(options.seed);
  let steps = 0;
  let actions = 0;
  const started = Date.now();
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: Math.ceil(options.stepsPerRun / 2), maxLength: options.stepsPerRun }), async (run: Action[][]) => {
        await world.reset();
        await world.settle();
        await world.check();
        let n = 0;
        for (const step of run) {
          const cid = () => `m${world.world}-${n++}`;
          for (const action of step) await perform(world, action, cid);
          await world.settle();
          const failures = await world.check();
          steps++;
          actions += step.length;
          if (failures.length > 0) throw new Error(`after step ${JSON.stringify(step)}:\n  ${failures.join('\n  ')}`);
          if (steps % 1000 === 0) options.log?.(`model: ${steps} steps, ${actions} actions, ${world.exactChecks} exact view checks, ${world.resyncs} resyncs, ${((Date.now() - started) / 1000).toFixed(0)} s`);
        }
      }),
      { seed: options.seed, numRuns: options.runs, endOnFailure: false, verbose: 0, includeErrorInReport: true },
    );
  } finally {
    await world.close();
  }
  return { steps, actions, ms: Date.now() - started, exactChecks: world.exactChecks, resyncs: world.resyncs };
}
