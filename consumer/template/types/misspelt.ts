import { test } from 'spot-sim/fixture';

test('misspelt', async ({ faults }) => {
  faults.dropMarketDataConection();
});
