// The account-event model (issue 24 item 1, docs/events.md), short: a client that applies the
// user-data events it receives always holds what GET account and openOrders say, under random
// REST and WS API orders, cancels, replaces, amends, counterparty trades, fault presets and
// rules (ack delays, delays, swallows, closes, mutes, drops, duplicates), resets and clock jumps.
// The long mode is `npm run soak:model` (MODEL_STEPS); the seed is printed to replay a failure.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runModel } from '../../test/model/run.ts';

const SEED = Number(process.env.MODEL_SEED ?? 20261125);
const RUNS = Number(process.env.MODEL_RUNS ?? 10);
const STEPS_PER_RUN = Number(process.env.MODEL_STEPS_PER_RUN ?? 40);

test(`the events a client applies always equal the account (seed ${SEED}, ${RUNS} runs of up to ${STEPS_PER_RUN} steps)`, async () => {
  console.log(`account-event model: seed ${SEED} (MODEL_SEED=${SEED} replays it)`);
  const result = await runModel({ seed: SEED, runs: RUNS, stepsPerRun: STEPS_PER_RUN });
  console.log(`account-event model: ${result.steps} steps, ${result.actions} actions, ${result.exactChecks} exact view checks, ${result.resyncs} resyncs in ${(result.ms / 1000).toFixed(1)} s`);
  // Most checks are exact (a resync follows only a documented loss), so the test cannot pass vacuously.
  assert.ok(result.exactChecks > result.resyncs, `${result.exactChecks} exact checks, ${result.resyncs} resyncs`);
});
