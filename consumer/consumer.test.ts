// The package as a user's repository gets it (API.md section 7, issue 12): this repository
// packed with `npm pack`, the tarball installed into two scratch projects outside it (one ESM,
// one CommonJS) next to @playwright/test, typescript and @types/node, and then used there the
// way the README tells a user to: a Playwright suite through `spot-sim/fixture`, the consumer's
// own strict `tsc`, `import`/`require` of `spot-sim`, `npx spot-sim`, and `spotSimWebServer`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../src/fixture/app-server.ts';
import { createProject, listening, pack, REPO, removeScratch, run, scratchRoot, startGroup, type Packed, type Project, type ProjectKind } from './scratch.ts';

const KINDS: readonly ProjectKind[] = ['esm', 'cjs'];
const root = scratchRoot();
let packed: Packed;
const projects = new Map<ProjectKind, Project>();

before(() => {
  packed = pack(join(root, 'pack'));
  for (const kind of KINDS) projects.set(kind, createProject(root, kind, packed.tarball));
  console.log(`# tarball ${packed.bytes} bytes, ${packed.files.length} files; install ${KINDS.map((k) => `${k} ${Math.round(projects.get(k)!.installMs)} ms`).join(', ')}`);
});
after(() => removeScratch(root));

function project(kind: ProjectKind): string {
  const p = projects.get(kind);
  if (p === undefined) throw new Error(`the ${kind} project was not installed`);
  return p.dir;
}

function npx(dir: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000) {
  return run(process.platform === 'win32' ? 'npx.cmd' : 'npx', args, dir, { env, timeoutMs });
}

function playwrightResults(file: string): { expected: number; unexpected: number; skipped: number; flaky: number } {
  return (JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; skipped: number; flaky: number } }).stats;
}


test('the tarball holds the build, the types, README, LICENSE, the default config and the TLS fixture, and nothing else', () => {
  const files = packed.files;
  for (const required of ['package.json', 'README.md', 'LICENSE', 'fixtures/config/default.toml', 'fixtures/tls/cert.pem', 'fixtures/tls/key.pem',
    'dist/esm/index.js', 'dist/esm/fixture.js', 'dist/esm/playwright.js', 'dist/esm/main.js',
    'dist/cjs/index.js', 'dist/cjs/fixture.js', 'dist/cjs/playwright.js', 'dist/cjs/package.json',
    'dist/types/index.d.ts', 'dist/types/fixture/index.d.ts', 'dist/cjs/types/index.d.ts']) {
    assert.ok(files.includes(required), `${required} missing from the tarball`);
  }
  const unexpected = files.filter((f) => /(^|\/)(e2e|bench|examples|consumer|scripts|src)\//.test(f) || /\.(test|spec)\.|\.ts$/.test(f.replace(/\.d\.ts$/, '')));
  assert.deepEqual(unexpected, []);
  const manifest = JSON.parse(readFileSync(join(project('esm'), 'node_modules/spot-sim/package.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(manifest.license, 'Apache-2.0');
  assert.deepEqual(Object.keys(manifest.peerDependencies as object), ['@playwright/test']);
  assert.equal(((manifest.dependencies ?? {}) as Record<string, string>)['@playwright/test'], undefined);
});

for (const kind of KINDS) {
  describe(`a${kind === 'esm' ? 'n ESM' : ' CommonJS'} project`, () => {
    test('its Playwright suite through spot-sim/fixture passes (one exchange per worker, shipped TLS pair, a web app in Chromium with routeBinanceHosts, appServer and market)', () => {
      const dir = project(kind);
      // Discovery (what the VS Code extension's test server does first) lists every fixture test.
      const listed = npx(dir, ['playwright', 'test', '--list', '--reporter=list']);
      assert.match(listed.stdout, /Total: 7 tests in 4 files/, `${listed.stdout}\n${listed.stderr}`);
      const result = npx(dir, ['playwright', 'test']);
      const stats = playwrightResults(join(dir, 'results.json'));
      assert.equal(stats.unexpected, 0, `failures:\n${result.stdout}\n${result.stderr}`);
      assert.equal(stats.expected, 7, result.stdout);
      assert.equal(result.status, 0);
      // There is exactly one @playwright/test: the project's own (a peer, never a second copy).
      assert.equal(run('find', ['node_modules', '-path', '*/@playwright/test/package.json'], dir).stdout.trim(), 'node_modules/@playwright/test/package.json');
    });

    const resolutions = kind === 'esm'
      ? [{ module: 'nodenext' }, { module: 'preserve', moduleResolution: 'bundler' }]
      : [{ module: 'commonjs' }, { module: 'node16' }];
    for (const compilerModule of resolutions) {
      test(`its strict tsc (${JSON.stringify(compilerModule)}) accepts a consumer file and refuses a misspelt fault method`, () => {
        const dir = project(kind);
        const tsconfig = (files: string[]) => ({ compilerOptions: { strict: true, target: 'es2022', lib: ['es2023', 'esnext.disposable', 'dom'], noEmit: true, types: ['node'], ...compilerModule }, files });
        writeFileSync(join(dir, 'tsconfig.good.json'), JSON.stringify(tsconfig(['types/consumer.ts', 'tests/order.spec.ts', 'tests/package.spec.ts', 'tests/web-app.spec.ts', 'tests/client-failures.spec.ts', 'playwright.config.ts', 'shared/playwright.config.ts'])));
        writeFileSync(join(dir, 'tsconfig.bad.json'), JSON.stringify(tsconfig(['types/misspelt.ts'])));
        const good = npx(dir, ['tsc', '-p', 'tsconfig.good.json']);
        assert.equal(good.status, 0, `tsc errors:\n${good.stdout}${good.stderr}`);
        const bad = npx(dir, ['tsc', '-p', 'tsconfig.bad.json']);
        assert.notEqual(bad.status, 0);
        assert.match(bad.stdout, /misspelt\.ts\(4,10\): error TS2551: Property 'dropMarketDataConection' does not exist on type '[^']+'. Did you mean 'dropMarketDataConnections'/);
        assert.equal(bad.stdout.trim().split('\n').filter((l) => l.includes('error TS')).length, 1, bad.stdout);
      });
    }

    test(`${kind === 'esm' ? 'import' : 'require'} of spot-sim starts and stops a simulator`, () => {
      const dir = project(kind);
      const load = kind === 'esm' ? "const { startSimulator, SpotSimClient } = await import('spot-sim');" : "const { startSimulator, SpotSimClient } = require('spot-sim');";
      const script = `(async () => { ${load}
        const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
        const client = new SpotSimClient(sim, { tls: true });
        const time = await client.rest.time();
        await client.close(); await sim.stop();
        console.log('served', typeof time.serverTime, sim.urls.https.startsWith('https://127.0.0.1:'));
      })().catch((e) => { console.error(e); process.exit(1); });`;
      const result = run(process.execPath, ['-e', script], dir, { timeoutMs: 30_000 });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout.trim(), 'served number true');
    });

    test('nothing runs at import time: no listener, no timer, no file read', () => {
      const dir = project(kind);
      const load = kind === 'esm'
        ? "await import('spot-sim'); await import('spot-sim/fixture'); await import('spot-sim/playwright');"
        : "require('spot-sim'); require('spot-sim/fixture'); require('spot-sim/playwright');";
      // Reads of anything but modules (a .pem, a .toml) are what must not happen. The peer
      // @playwright/test loads first: what it does at import (it reads /etc/os-release, opens
      // the stdio pipes) is its own, not spot-sim's.
      const peer = kind === 'esm' ? "await import('@playwright/test');" : "require('@playwright/test');";
      const script = `(async () => {
        ${peer}
        process.stdout; process.stderr;
        const fs = require('node:fs'); const reads = [];
        for (const name of ['readFileSync', 'openSync', 'readFile', 'open', 'createReadStream']) {
          const original = fs[name]; fs[name] = function (path, ...rest) { reads.push(String(path)); return original.call(this, path, ...rest); };
        }
        require('node:module').syncBuiltinESMExports();
        const before = new Set(process.getActiveResourcesInfo());
        ${load}
        const added = process.getActiveResourcesInfo().filter((r) => !before.has(r));
        console.log(JSON.stringify({ reads: reads.filter((p) => !/\\.(c|m)?js$|\\.json$/.test(p)), added }));
      })();`;
      const result = run(process.execPath, ['-e', script], dir, { timeoutMs: 30_000 });
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), { reads: [], added: [] });
    });

    test('npx spot-sim runs the standalone server and stops on Ctrl-C', async () => {
      const dir = project(kind);
      const server = startGroup(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['spot-sim', '--port', '0', '--tls-port', '0', '--stats-interval-ms', '0'], dir);
      try {
        const [, port] = await server.waitFor(/http: +http:\/\/127\.0\.0\.1:(\d+)/);
        await server.waitFor(/net backend: epoll/);
        const ping = await fetch(`http://127.0.0.1:${port}/api/v3/ping`);
        assert.equal(ping.status, 200);
        server.signalGroup('SIGINT');
        await server.waitFor(/spot-sim: SIGINT, stopping/);
        await server.exited;
        assert.equal(await listening(Number(port)), false);
      } finally {
        if (server.child.exitCode === null && server.child.signalCode === null) server.signalGroup('SIGKILL');
      }
    });
  });
}

test('the bin keeps the exit codes of src/main.ts: 0 after SIGTERM, 2 for usage, 1 for a port in use', async () => {
  const dir = project('esm');
  const bin = join(dir, 'node_modules', '.bin', 'spot-sim');
  const version = run(bin, ['--version'], dir, { timeoutMs: 20_000 });
  assert.deepEqual([version.status, version.stdout.trim()], [0, JSON.parse(readFileSync(join(dir, 'node_modules/spot-sim/package.json'), 'utf8')).version]);
  const usage = run(bin, ['--no-such-flag'], dir, { timeoutMs: 20_000 });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /Unknown option '--no-such-flag'/);
  const server = startGroup(bin, ['--port', '0', '--tls-port', '0', '--quiet'], dir);
  const [, port] = await server.waitFor(/http: +http:\/\/127\.0\.0\.1:(\d+)/);
  const busy = run(bin, ['--port', port!, '--tls-port', '0'], dir, { timeoutMs: 20_000 });
  assert.equal(busy.status, 1);
  assert.match(busy.stderr, new RegExp(port!));
  server.child.kill('SIGTERM');
  assert.deepEqual(await server.exited, { code: 0, signal: null });
});

test('spotSimWebServer in a consumer config starts one shared simulator for the run and stops it after', async () => {
  const dir = project('cjs');
  const [port, tlsPort] = [await freePort(), await freePort()];
  const env = { SHARED_SIM_PORT: String(port), SHARED_SIM_TLS_PORT: String(tlsPort), CI: '1' };
  const result = npx(dir, ['playwright', 'test', '-c', 'shared/playwright.config.ts'], env);
  const stats = playwrightResults(join(dir, 'shared-results.json'));
  assert.deepEqual([stats.expected, stats.unexpected], [1, 0], `${result.stdout}\n${result.stderr}`);
  assert.equal(await listening(port), false, 'the shared simulator is still running after the run');
});

test('a git install builds the package through prepare', () => {
  const dir = join(root, 'git');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'spot-sim-consumer-git', version: '1.0.0', private: true }));
  const head = run('git', ['rev-parse', 'HEAD'], REPO).stdout.trim();
  const install = run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${REPO}#${head}`], dir, { timeoutMs: 240_000 });
  assert.equal(install.status, 0, install.stderr);
  const result = run(process.execPath, ['-e', "const { startSimulator } = require('spot-sim'); console.log(typeof startSimulator)"], dir, { timeoutMs: 20_000 });
  assert.equal(result.stdout.trim(), 'function', result.stderr);
});
