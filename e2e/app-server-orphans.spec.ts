// `appServer` leaves nothing behind (issue: the fixture leaves nothing behind), even when the
// worker dies without running its teardown: killed (SIGKILL) or ended by `process.exit` in a
// test. The app, a process it started and its port must all be gone afterwards. A worker's death
// is what only a nested run shows.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { nestedConfig, runNestedPlaywright } from './support/nested-run.ts';

interface AppInfo {
  readonly pid: number;
  readonly grandchild: number;
  readonly port: number;
}

/** An app that records its pid, a child process of its own and its port in app.json, then serves. */
const APP = `
const { spawn } = require('node:child_process');
const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
require('node:http').createServer((q, s) => s.end('up')).listen(Number(process.env.PORT), '127.0.0.1', () => {
  require('node:fs').writeFileSync('app.json', JSON.stringify({ pid: process.pid, grandchild: grandchild.pid, port: Number(process.env.PORT) }));
});
`;

function dyingWorkerSpec(death: string): string {
  return `
import { test } from 'spot-sim/fixture';
test.use({ appServer: { command: 'node app.cjs', url: 'http://127.0.0.1:{port}/' } });
test('the worker dies', async ({ baseURL }) => {
  await fetch(baseURL!);
  ${death};
});
`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** True once every process is gone and the port refuses, polled for up to 10 s (no event says so). */
async function goneSoon(info: AppInfo): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const gone = !alive(info.pid) && !alive(info.grandchild) && !(await listening(info.port));
    if (gone || Date.now() > deadline) return gone;
  }
}

for (const [how, death] of [
  ['killed with SIGKILL', "process.kill(process.pid, 'SIGKILL')"],
  ['ended by process.exit in a test', 'process.exit(3)'],
] as const) {
  test(`a worker ${how}: its app, the app's own child and its port are gone`, async ({}, testInfo) => {
    testInfo.setTimeout(120_000);
    const dir = testInfo.outputPath('inner');
    const infoFile = join(dir, 'app.json');
    const run = await runNestedPlaywright(dir, {
      'app.cjs': APP,
      'dies.spec.ts': dyingWorkerSpec(death),
      'playwright.config.ts': nestedConfig({ testMatch: 'dies.spec.ts' }),
    });
    expect(run.code, run.output).toBe(1);
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as AppInfo;
    try {
      expect(await goneSoon(info), `app ${info.pid}, its child ${info.grandchild}, port ${info.port}`).toBe(true);
    } finally {
      for (const pid of [info.pid, info.grandchild]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
}
