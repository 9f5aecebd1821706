// The account-event model in its long mode (issue 24 item 1): `npm run soak:model`, or with
// MODEL_STEPS (default 100,000), MODEL_SEED (first seed; each chunk of runs takes the next) and
// MODEL_STEPS_PER_RUN. Runs chunks of fast-check runs until that many steps were checked, then
// prints steps, actions, view checks, resyncs, time and failures; exits 1 on the first failure
// (fast-check's report, with the seed and counterexample to replay it).

import { runModel } from './run.ts';

const target = Number(process.env.MODEL_STEPS ?? 100_000);
const firstSeed = Number(process.env.MODEL_SEED ?? Date.now() % 2_000_000_000);
const stepsPerRun = Number(process.env.MODEL_STEPS_PER_RUN ?? 60);
const RUNS_PER_CHUNK = 50;

let steps = 0;
let actions = 0;
let exact = 0;
let resyncs = 0;
const started = Date.now();
for (let seed = firstSeed; steps < target; seed++) {
  try {
    const r = await runModel({ seed, runs: RUNS_PER_CHUNK, stepsPerRun });
    steps += r.steps;
    actions += r.actions;
    exact += r.exactChecks;
    resyncs += r.resyncs;
    console.log(`seed ${seed}: ${r.steps} steps in ${(r.ms / 1000).toFixed(1)} s; total ${steps} steps, ${actions} actions, ${exact} exact view checks, ${resyncs} resyncs, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    console.error(`seed ${seed}: FAILED after ${steps} steps of earlier seeds\n${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
console.log(`account-event model, long mode: ${steps} steps (${actions} actions), ${exact} exact view checks, ${resyncs} resyncs, 0 failures, ${((Date.now() - started) / 60_000).toFixed(1)} min, first seed ${firstSeed}`);
