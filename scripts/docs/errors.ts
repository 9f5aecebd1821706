// docs/errors.md: every code the simulator answers, from the one error table (src/core/errors.ts):
// each row's HTTP status and message, when the simulator sends it (./error-notes.ts), the fault
// calls that inject it (src/faults/presets.ts) and the fault rule that does, and what the
// reference exchange's documents say the code means.
import { ERRORS, type ErrorName, type ErrorRow } from '../../src/core/errors.ts';
import { faultMethod } from '../../src/faults/methods.ts';
import { PRESETS } from '../../src/faults/presets.ts';
import { rowOfCode } from '../../src/faults/rule.ts';
import { ERROR_NOTES, REFERENCE_CODES } from './error-notes.ts';
import { cell } from './markdown.ts';

const REFERENCE_DOCS = 'https://github.com/binance/binance-spot-api-docs/blob/master';

/** The fault calls whose preset refuses with `name`'s row (its code and, for a message of its own, that message). */
export function presetCallsOf(name: ErrorName): string[] {
  const row: ErrorRow = ERRORS[name];
  const calls: string[] = [];
  for (const preset of Object.values(PRESETS)) {
    const effect = preset.effect(1);
    if (effect.kind !== 'refuse') continue;
    const { refusal } = effect;
    if (refusal.row === name || (refusal.row === null && refusal.code === row.code && row.msg === '%s')) calls.push(preset.call);
  }
  return calls;
}

function faultsCell(name: ErrorName): string {
  const code = ERRORS[name].code;
  const ways = presetCallsOf(name).map((call) => `\`sim.faults.${call}(${faultMethod(call)?.args.join(', ') ?? ''})\``);
  if (rowOfCode(code) === name) ways.push(`a rule \`{ error: ${code} }\``);
  return ways.length === 0 ? '' : ways.join('; ');
}

/** A note's `docs/x.md` mentions as links from docs/errors.md. */
export function linked(note: string): string {
  return note.replace(/\bdocs\/([\w/-]+\.md)/g, '[$1]($1)');
}

/** Placeholders as a reader sees them. */
function shownMessage(msg: string): string {
  return msg === '%s' ? '(the fault\'s message)' : `\`${msg.replace(/%s/g, '…')}\``;
}

export function errorsReference(notes: Readonly<Record<string, string>> = ERROR_NOTES): string {
  const names = Object.keys(ERRORS) as ErrorName[];
  const missing = names.filter((n) => notes[n] === undefined);
  const unknown = Object.keys(notes).filter((n) => !(n in ERRORS));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(`scripts/docs/error-notes.ts is out of step with the error table: missing ${missing.join(', ') || '-'}; unknown ${unknown.join(', ') || '-'}`);
  }
  const codes = [...new Set(names.map((n) => ERRORS[n].code))].sort((a, b) => b - a);
  const unlisted = codes.filter((c) => !(c in REFERENCE_CODES));
  if (unlisted.length > 0) throw new Error(`scripts/docs/error-notes.ts: REFERENCE_CODES lacks ${unlisted.join(', ')}`);
  const out = [
    '# Error codes',
    '',
    'Every refusal the simulator sends, code by code: the HTTP status and message, when it sends',
    'it, the faults that inject it, and what the reference exchange says the code means. REST',
    'answers `{"code": -1121, "msg": "Invalid symbol."}` with the status; the WS API answers',
    '`{"id": ..., "status": 400, "error": {"code": -1121, "msg": "Invalid symbol."}}`; the typed',
    'client throws a `SpotSimError` with `status`, `code` and `msg` ([client.md](client.md)). A',
    'refusal changes nothing (cancelReplace\'s `-2021` keeps the leg that succeeded). `…` stands',
    'for what the message names (a parameter, a limit, a time).',
    '',
    'Faults: `sim.faults.use({ on, action: { error: code } })` answers the first row of that code',
    'below, where the reference would check it, with its status and message; `{ status, code, msg }`',
    'sends any other. The fixed fault calls listed here (also `[sim.faults]` keys of the',
    'configuration) inject their rows ([faults](faults.md)). Not on this page: the control API\'s',
    'errors ([control-api.md](control-api.md)) and the replies to `SUBSCRIBE` and other control',
    'frames on market-data streams ([websockets.md](websockets.md), [input-limits.md](input-limits.md#market-data-control-frames)).',
    '',
    codes.map((c) => `[${c}](#${String(c)})`).join(' · '),
    '',
  ];
  for (const code of codes) {
    const ref = REFERENCE_CODES[code];
    out.push(`<a id="${code}"></a>`, '', `## ${code}${ref ? ` ${ref.name}` : ''}`, '');
    out.push(ref ? `Reference ([${ref.doc.split('#')[0]}](${REFERENCE_DOCS}/${ref.doc})): ${ref.meaning}` : 'Not a code of the reference exchange: the simulator\'s own.', '');
    out.push('| HTTP | message | when the simulator sends it | faults that send it |', '|---|---|---|---|');
    for (const name of names.filter((n) => ERRORS[n].code === code)) {
      out.push(`| ${ERRORS[name].http} | ${cell(shownMessage(ERRORS[name].msg))} | ${cell(linked(notes[name]!))} | ${cell(faultsCell(name))} |`);
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
