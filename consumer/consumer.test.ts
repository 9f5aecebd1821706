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
/**
 * The lowest @playwright/test the package declares as its peer (package.json), which a third
 * project installs: the range says only what this test runs against.
 */
const LOWEST_PLAYWRIGHT = lowestPeer();
let lowest: Project;

function lowestPeer(): string {
  const range = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies['@playwright/test'];
  const version = /^>=(\d+\.\d+\.\d+)$/.exec(range ?? '')?.[1];
  if (version === undefined) throw new Error(`the @playwright/test peer range must be ">=x.y.z" (the version tested here), got ${range}`);
  return version;
}

before(() => {
  packed = pack(join(root, 'pack'));
  for (const kind of KINDS) projects.set(kind, createProject(root, kind, packed.tarball));
  lowest = createProject(root, 'esm', packed.tarball, { name: 'lowest', playwright: LOWEST_PLAYWRIGHT });
  console.log(`# tarball ${packed.bytes} bytes, ${packed.files.length} files; install ${KINDS.map((k) => `${k} ${Math.round(projects.get(k)!.installMs)} ms`).join(', ')}, @playwright/test ${LOWEST_PLAYWRIGHT} ${Math.round(lowest.installMs)} ms`);
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
  assert.deepEqual(manifest.peerDependencies, { '@playwright/test': `>=${LOWEST_PLAYWRIGHT}` });
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
  assert.match(usage.stderr, /unknown option --no-such-flag/);
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

interface ReportedTest {
  readonly file: string;
  readonly title: string;
  readonly status: string;
  readonly message: string;
  readonly location?: { file: string; line: number };
  readonly snippet: string;
}

/** Every test of a Playwright JSON report with its first result (ANSI colours removed). */
function reportedTests(file: string): { tests: ReportedTest[]; errors: unknown[] } {
  type Suite = { file: string; specs: { title: string; tests: { results: { status: string; error?: { message?: string; snippet?: string; location?: { file: string; line: number } } }[] }[] }[]; suites?: Suite[] };
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites: Suite[]; errors: unknown[] };
  const plain = (text = '') => text.replace(/\u001b\[[0-9;]*m/g, '');
  const walk = (suite: Suite): ReportedTest[] => [
    ...suite.specs.map((spec) => {
      const result = spec.tests[0]!.results[0]!;
      return { file: suite.file, title: spec.title, status: result.status, message: plain(result.error?.message), location: result.error?.location, snippet: plain(result.error?.snippet) };
    }),
    ...(suite.suites ?? []).flatMap(walk),
  ];
  return { tests: report.suites.flatMap(walk), errors: report.errors };
}

/** The 1-based line of a template file that contains `text`. */
function templateLine(file: string, text: string): number {
  return readFileSync(join(REPO, 'consumer', 'template', file), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
}

/** Runs the fixture-checks suite (some of its tests fail on purpose) and checks each test's outcome. */
function checkFixtureBehaviour(dir: string): void {
  const result = npx(dir, ['playwright', 'test', '-c', 'fixture-checks/playwright.config.ts']);
  const { tests, errors } = reportedTests(join(dir, 'fixture-checks-results.json'));
  const output = `${result.stdout}\n${result.stderr}`;
  const byTitle = new Map(tests.map((t) => [t.title, t]));
  const outcome = (title: string) => {
    const t = byTitle.get(title);
    assert.ok(t !== undefined, `no test '${title}' in the report:\n${output}`);
    return t;
  };
  // Nothing reported outside a test ("1 error was not a part of any test").
  assert.deepEqual(errors, [], output);

  // An unawaited bad call fails its own test, at its line, with the code frame there.
  const unawaited = outcome('an unawaited bad call');
  const line = templateLine('fixture-checks/failures.spec.ts', 'faults.rejectNextOrders(-1)');
  assert.equal(unawaited.status, 'failed', output);
  assert.match(unawaited.message, /^FaultRangeError: /);
  assert.match(unawaited.location?.file ?? '', /fixture-checks[\\/]failures\.spec\.ts$/);
  assert.equal(unawaited.location?.line, line);
  assert.match(unawaited.snippet, new RegExp(`> ${line} \\| +faults\\.rejectNextOrders\\(-1\\); // the failing line`));
  assert.equal(outcome('the next test is unaffected').status, 'passed', output);

  // Merged with the user's own fixture: no listener for a test that uses none of spot-sim's.
  assert.equal(outcome('a test with only its own fixture opens no listener').status, 'passed', output);
  assert.equal(outcome('a test with spot-sim fixtures gets the exchange').status, 'passed', output);

  // test.extend(spotSimFixtures) with mergeExpects(own, spotSimMatchers): every matcher passes...
  assert.equal(outcome('every matcher passes').status, 'passed', output);
  // ...and each fails with what it saw.
  const failed = (title: string, ...parts: (string | RegExp)[]) => {
    const t = outcome(title);
    assert.equal(t.status, 'failed', `${title}\n${output}`);
    for (const part of parts) {
      if (typeof part === 'string') assert.ok(t.message.includes(part), `${title}: no ${JSON.stringify(part)} in\n${t.message}`);
      else assert.match(t.message, part, title);
    }
  };
  failed('toReceive fails', 'expect(received).toReceive(expected)', 'Expected: executionReport with {i: 1, X: "FILLED"}', /Received: 1 executionReport event \(and \d+ others?\), the last:\n  \{i: 1, X: "NEW"\}/, '(waited up to 300 ms)');
  failed('toHaveOpenOrder fails', 'expect(received).toHaveOpenOrder(expected)', 'Expected: open order with {symbol: "BTCUSDT", price: "58000"}', 'Received: 1 open order of BTCUSDT:\n  {symbol: "BTCUSDT", orderId: 1,', 'price: "59000.00000000"');
  failed('toHaveBalance fails', 'expect(received).toHaveBalance(expected)', 'Expected: BTC {free: "1"}', /Received: BTC \{free: "\d+\.\d{8}", locked: "0\.00000000"\}/);
  failed('toHaveBeenHit fails', 'expect(received).toHaveBeenHit(expected)', 'Expected: 1 hit\nReceived: 0 hits');
  assert.equal(tests.length, 9, output);
}

test('the fixture as a user sees it (ESM project): a bad call fails its own test at its line; merged, extended, and every matcher passing and failing readably', () => {
  checkFixtureBehaviour(project('esm'));
});

test(`the lowest @playwright/test of the peer range (${LOWEST_PLAYWRIGHT}): the fixture checks, the fixture suite without a browser and the consumer's strict tsc`, () => {
  const dir = lowest.dir;
  assert.equal((JSON.parse(readFileSync(join(dir, 'node_modules/@playwright/test/package.json'), 'utf8')) as { version: string }).version, LOWEST_PLAYWRIGHT);
  checkFixtureBehaviour(dir);
  const suite = npx(dir, ['playwright', 'test', 'tests/order.spec.ts', 'tests/package.spec.ts']);
  const stats = playwrightResults(join(dir, 'results.json'));
  assert.deepEqual([stats.unexpected, stats.expected > 0], [0, true], `${suite.stdout}\n${suite.stderr}`);
  writeFileSync(join(dir, 'tsconfig.good.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', lib: ['es2023', 'esnext.disposable', 'dom'], noEmit: true, types: ['node'], module: 'nodenext' }, files: ['types/consumer.ts', 'fixture-checks/playwright.config.ts', 'fixture-checks/matchers.spec.ts', 'fixture-checks/merged.spec.ts'] }));
  const tsc = npx(dir, ['tsc', '-p', 'tsconfig.good.json']);
  assert.equal(tsc.status, 0, `tsc errors:\n${tsc.stdout}${tsc.stderr}`);
});
