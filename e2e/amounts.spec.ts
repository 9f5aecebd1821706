// Amounts at the reference precision, end to end (issue 13 items 3 and 4): a commission is charged
// at 8 decimals (rounded up) and myTrades, the executionReport, the FULL fills and the balances
// all show the charged figure; a BUY locks exactly its notional, and placement still needs the
// worst-case commission free on top of it.
import { test, expect } from 'spot-sim/fixture';
import { buy, refusal, SYMBOL } from './support/helpers.ts';
import { counterparty } from './support/rest.ts';

test.use({ simConfig: { sim: { generator: { enabled: false }, account: { balances: { BTC: '1', USDT: '1000' } } } } });
test.beforeEach(({ sim }) => sim.reset());

const balanceOf = async (client: { rest: { account(): Promise<{ balances: { asset: string; free: string; locked: string }[] }> } }, asset: string) =>
  (await client.rest.account()).balances.find((b) => b.asset === asset);

test('a maker BUY of 0.00009 at 55555.57 is charged 0.00050001 in myTrades, the executionReport and the balance', async ({ client, faults }) => {
  const user = await client.userData();
  const order = await client.rest.newOrder(buy('55555.57', '0.00009'));
  expect(await faults.fillOpenOrder(order.orderId, '0.00009')).toBe('0.00009000');
  const report = await user.next((e) => e.e === 'executionReport' && e.x === 'TRADE');
  expect(report).toMatchObject({ i: order.orderId, l: '0.00009000', L: '55555.57000000', n: '0.00050001', N: 'USDT', m: true });
  const trades = await client.rest.myTrades({ symbol: SYMBOL });
  expect(trades).toEqual([expect.objectContaining({ orderId: order.orderId, quoteQty: '5.00000130', commission: '0.00050001', commissionAsset: 'USDT', isMaker: true })]);
  // 1000 - 5.0000013 - 0.00050001, never more than 8 decimals.
  expect(await balanceOf(client, 'USDT')).toEqual({ asset: 'USDT', free: '994.99949869', locked: '0.00000000' });
  const position = await user.next((e) => e.e === 'outboundAccountPosition' && e.B.some((b) => b.a === 'USDT'));
  expect(position).toMatchObject({ B: expect.arrayContaining([{ a: 'USDT', f: '994.99949869', l: '0.00000000' }]) });
});

test('a taker SELL shows its 8-decimal commission in the FULL fills', async ({ client, sim }) => {
  counterparty(sim, SYMBOL, 'BUY', '55555.57', '0.00009');
  const sold = await client.rest.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: '0.00009', newOrderRespType: 'FULL' });
  // 4 bps of 5.0000013 = 0.00200000052, charged 0.00200001.
  expect(sold.fills).toEqual([expect.objectContaining({ price: '55555.57000000', qty: '0.00009000', commission: '0.00200001', commissionAsset: 'USDT' })]);
  expect(await balanceOf(client, 'USDT')).toEqual({ asset: 'USDT', free: '1004.99800129', locked: '0.00000000' });
});

test('a BUY 0.01 at 50000 locks exactly 500; a BUY whose notional plus worst-case commission is not free is refused (-2010)', async ({ client }) => {
  await client.rest.newOrder(buy('50000', '0.01'));
  expect(await balanceOf(client, 'USDT')).toEqual({ asset: 'USDT', free: '500.00000000', locked: '500.00000000' });
  // 0.01 x 49990 = 499.9 needs 499.9 + 0.19996 (4 bps) = 500.09996 free; 500 is not enough.
  const refused = await refusal(client.rest.newOrder(buy('49990', '0.01')));
  expect(refused).toMatchObject({ status: 400, code: -2010, msg: 'Account has insufficient balance for requested action.' });
  // 0.01 x 49950 = 499.5 + 0.1998 fits.
  await client.rest.newOrder(buy('49950', '0.01'));
  expect(await balanceOf(client, 'USDT')).toEqual({ asset: 'USDT', free: '0.50000000', locked: '999.50000000' });
});
