import { test, expect } from '@playwright/test';

test('the shared simulator answers on its fixed URL', async ({ request }) => {
  const base = `http://127.0.0.1:${process.env.SHARED_SIM_PORT}`;
  expect((await request.get(`${base}/api/v3/ping`)).status()).toBe(200);
  const info = await (await request.get(`${base}/api/v3/exchangeInfo?symbol=BTCUSDT`)).json();
  expect(info.symbols[0].symbol).toBe('BTCUSDT');
});
