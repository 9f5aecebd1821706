// docs/reference/faults.md: every fault call (from the `Faults` class's methods and their doc
// comments, with the control API's body from src/faults/methods.ts), every timed key of
// `[sim.faults]` (from the configuration schema and its commented default), and the fields of a
// fault rule (from the FaultRule / FaultAction types).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULT_METHODS } from '../../src/faults/methods.ts';
import { FAULTS_SPEC } from '../../src/config/sections.ts';
import { DEFAULT_CONFIG } from '../../src/config/index.ts';
import { readCommentedDefault } from './configuration.ts';
import { cell, REPO } from './markdown.ts';
import { membersOfExport } from './ts-api.ts';

export function faultsReference(): string {
  const members = membersOfExport('src/index.ts', 'Faults');
  const byName = new Map(members.map((m) => [m.name, m]));
  const out = [
    '# Faults reference',
    '',
    'Every fault is a method of `sim.faults` (in-process, and the fixture\'s `faults`), a route of the',
    'control API (`POST /sim/v1/faults/<method>` with the arguments by name as a JSON object), and, for',
    'the timed ones, a key of `[sim.faults]`. Out-of-range arguments are a `FaultRangeError` (a',
    '`RangeError`) in-process and 400 over HTTP; nothing changes.',
    '',
    '## Fault calls',
    '',
    '| method | control API body | what it does |',
    '|---|---|---|',
  ];
  for (const [name, method] of Object.entries(FAULT_METHODS)) {
    const member = byName.get(name);
    if (!member) throw new Error(`fault method ${name} is routed but not a public method of Faults`);
    const body = method.args.length === 0 ? '(none)' : `\`{${method.args.map((a) => `"${a}"`).join(', ')}}\``;
    out.push(`| \`${cell(member.signature)}\` | ${body} | ${cell(member.doc)} |`);
  }
  out.push('', '## Fault rules', '', 'Beyond the fixed calls, rules name endpoints (see [endpoints](endpoints.md), column "fault id") and one action:', '');
  out.push('| call | what it does |', '|---|---|');
  for (const name of ['use', 'rules', 'endpoints', 'removeRule']) {
    const member = byName.get(name);
    if (member) out.push(`| \`${cell(member.signature)}\` | ${cell(member.doc)} |`);
  }
  out.push('', 'Rule fields (`sim.faults.use(rule)`, `POST /sim/v1/faults/rules`):', '', '| field | meaning |', '|---|---|');
  for (const m of membersOfExport('src/index.ts', 'FaultRule')) out.push(`| \`${cell(m.signature)}\` | ${cell(m.doc)} |`);
  out.push('', 'Actions: `{ error: code }` (the error table\'s status and message for that code), `{ status, code, msg }`,', '`{ delayMs }`, `{ swallow: true }`, `{ close: true }`.', '');
  out.push('## Timed faults (`[sim.faults]`)', '', '| key | default | meaning |', '|---|---|---|');
  const toml = readFileSync(join(REPO, 'fixtures/config/default.toml'), 'utf8');
  const documented = new Map(readCommentedDefault(toml).flatMap((s) => s.keys).map((k) => [k.path, k.meaning]));
  for (const key of Object.keys(FAULTS_SPEC)) {
    const value = (DEFAULT_CONFIG.sim.faults as unknown as Record<string, unknown>)[key];
    out.push(`| \`${key}\` | \`${JSON.stringify(value)}\` | ${cell(documented.get(`sim.faults.${key}`) ?? '')} |`);
  }
  return `${out.join('\n').trimEnd()}\n`;
}
