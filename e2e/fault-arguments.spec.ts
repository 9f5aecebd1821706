// Fault arguments within range (issue 13 item 8): a numeric argument outside its range is refused
// before anything changes, as a RangeError in-process and 400 naming it on the control API. The
// ack delay is a timer: 2^31 ms or more would overflow it (Node fires such a timer at once after a
// warning) and the reply would never come as asked, so it is capped where `delay_ack_ms` is.
import { test, expect, type Simulator } from 'spot-sim/fixture';
import { buy, SYMBOL } from './support/helpers.ts';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });
test.beforeEach(({ sim }) => sim.reset());

const MAX_TIMER_MS = 2 ** 31 - 1;

/** The ack delay in force, as the public rule list shows it (the setAckDelayMs preset); 0 when off. */
function ackDelayMs(sim: Simulator): number {
  const rule = sim.faults.rules().find((r) => r.preset === 'setAckDelayMs');
  return rule !== undefined && 'delayMs' in rule.action ? rule.action.delayMs : 0;
}

test('out-of-range numeric arguments throw RangeError in-process and change nothing', async ({ client, sim }) => {
  // The in-process handle (API.md section 3) throws at once; the fixture's `faults` wraps each
  // call in a report step and rejects instead.
  const faults = sim.faults;
  const calls: [string, () => unknown][] = [
    ['setAckDelayMs(2^31)', () => faults.setAckDelayMs(2 ** 31)],
    ['setAckDelayMs(-1)', () => faults.setAckDelayMs(-1)],
    ['setAckDelayMs(1.5)', () => faults.setAckDelayMs(1.5)],
    ['setAckDelayMs(Infinity)', () => faults.setAckDelayMs(Infinity)],
    ['rejectNextOrders(-1)', () => faults.rejectNextOrders(-1)],
    ['rateLimitNextRequests(2^53)', () => faults.rateLimitNextRequests(2 ** 53)],
    ['swallowNextWsApiResponses(0.5)', () => faults.swallowNextWsApiResponses(0.5)],
    ['duplicateNextUserEvents(NaN)', () => faults.duplicateNextUserEvents(NaN)],
    ['banNextRequests(-3)', () => faults.banNextRequests(-3)],
    ['failNextAuth(1e300)', () => faults.failNextAuth(1e300)],
    ['setClockOffsetMs(2^53)', () => faults.setClockOffsetMs(2 ** 53)],
    ['setClockOffsetMs(0.5)', () => faults.setClockOffsetMs(0.5)],
    ['fillOpenOrder(0, ...)', () => faults.fillOpenOrder(0, '0.001')],
    ['fillOpenOrder(2^53, ...)', () => faults.fillOpenOrder(2 ** 53, '0.001')],
  ];
  const before = JSON.stringify(sim.stats().faults);
  const clock = sim.now();
  for (const [what, call] of calls) expect(call, what).toThrow(RangeError);
  expect(JSON.stringify(sim.stats().faults)).toBe(before);
  expect(Math.abs(sim.now() - clock)).toBeLessThan(5_000);
  expect(ackDelayMs(sim)).toBe(0);
  // No rejection, rate limit or ban armed: an order goes through.
  await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
  // The largest timer is accepted.
  faults.setAckDelayMs(MAX_TIMER_MS);
  expect(ackDelayMs(sim)).toBe(MAX_TIMER_MS);
});

test('the control API answers 400 naming the range for the same arguments', async ({ sim, client, playwright }) => {
  const ctx = await playwright.request.newContext();
  try {
    const post = async (method: string, args: object) => {
      const res = await ctx.post(`${sim.urls.http}/sim/v1/faults/${method}`, { data: args });
      return { status: res.status(), body: await res.json() };
    };
    const ack = await post('setAckDelayMs', { ms: 2 ** 31 });
    expect(ack.status).toBe(400);
    expect(ack.body.error.message).toMatch(/ms must be an integer from 0 to 2147483647/);
    expect((await post('rejectNextOrders', { k: -1 })).status).toBe(400);
    expect((await post('setClockOffsetMs', { ms: 2 ** 53 })).status).toBe(400);
    expect((await post('setClockOffsetMs', { ms: 1.5 })).status).toBe(400);
    // Nothing was set.
    expect(ackDelayMs(sim)).toBe(0);
    await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ symbol: SYMBOL, status: 'NEW' });
    expect((await post('setAckDelayMs', { ms: MAX_TIMER_MS })).status).toBe(200);
    expect(ackDelayMs(sim)).toBe(MAX_TIMER_MS);
  } finally {
    await ctx.dispose();
  }
});
