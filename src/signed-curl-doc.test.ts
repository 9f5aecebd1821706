// docs/running.md's "A signed request with curl", run as written (only the URL moved to a
// random loopback port): bash, curl and openssl against a simulator with the default
// credentials, so the snippet a user copies places an order and reads the account.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type Simulator } from './index.ts';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from './config/defaults.ts';

const ROOT = resolve(import.meta.dirname, '..');
const HEADING = '## A signed request with curl';
const DOCUMENTED_URL = 'http://127.0.0.1:9080';

/** The first ```sh block after `heading` in a Markdown page. */
export function shellBlockAfter(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const at = lines.indexOf(heading);
  assert.ok(at >= 0, `no "${heading}" heading`);
  const open = lines.findIndex((line, i) => i > at && line.trim() === '```sh');
  assert.ok(open > at, `no \`\`\`sh block after "${heading}"`);
  const close = lines.findIndex((line, i) => i > open && line.trim() === '```');
  assert.ok(close > open, `the \`\`\`sh block after "${heading}" is not closed`);
  return lines.slice(open + 1, close).join('\n');
}

let sim: Simulator;
before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
});
after(async () => {
  await sim?.stop();
});

test('the signed curl example of docs/running.md places an order and reads the account', async () => {
  const snippet = shellBlockAfter(readFileSync(join(ROOT, 'docs/running.md'), 'utf8'), HEADING);
  // It shows the credentials a simulator has when nothing overrides them.
  assert.ok(snippet.includes(`API_KEY=${DEFAULT_API_KEY}`) && snippet.includes(`API_SECRET=${DEFAULT_API_SECRET}`), 'the snippet shows other credentials than the defaults');
  assert.deepEqual(sim.credentials, { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET });
  assert.ok(snippet.includes(DOCUMENTED_URL));
  const script = snippet.replaceAll(DOCUMENTED_URL, sim.urls.http.replace(/\/$/, ''));
  // Asynchronous: the simulator answers on this process's event loop while bash runs.
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { timeout: 20_000 });
  const [order, account, ...rest] = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(rest, []);
  assert.equal(order?.status, 'NEW', stdout);
  assert.equal(order?.symbol, 'BTCUSDT');
  assert.deepEqual(sim.openClientOrderIds(), [order?.clientOrderId]);
  const balances = account?.balances as { asset: string; free: string; locked: string }[];
  assert.deepEqual(balances.find((b) => b.asset === 'USDT'), { asset: 'USDT', free: '9999950.00000000', locked: '50.00000000' });
});
