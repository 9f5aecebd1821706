// docs/reference/endpoints.md: every operation of the one endpoint table (REST route, WS API
// method, security, weight, the id fault rules name it by), with the notes of endpoint-notes.ts.
import { ENDPOINTS } from '../../src/api/endpoints.ts';
import { Params } from '../../src/api/params.ts';
import { faultId } from '../../src/faults/rule.ts';
import { ENDPOINT_NOTES } from './endpoint-notes.ts';
import { cell } from './markdown.ts';

export function endpointsReference(): string {
  const ids = new Set(ENDPOINTS.map((e) => e.id));
  const unknown = Object.keys(ENDPOINT_NOTES).filter((id) => !ids.has(id));
  const missing = [...ids].filter((id) => ENDPOINT_NOTES[id] === undefined);
  if (unknown.length > 0 || missing.length > 0) {
    throw new Error(`scripts/docs/endpoint-notes.ts is out of step with the endpoint table: missing ${missing.join(', ') || '-'}; unknown ${unknown.join(', ') || '-'}`);
  }
  const none = new Params(new Map(), null);
  const out = [
    '# REST endpoints and WS API methods',
    '',
    'Every operation the simulator serves, from its one endpoint table: REST and the WS API run the',
    'same handler, so parameters, errors, weights and results are the same on both (a WS API',
    'request\'s `params` are the REST query\'s parameters). SIGNED requests carry `timestamp` and',
    '`signature` (HMAC-SHA256 hex, or Ed25519 base64 for an Ed25519 account); API_KEY ones need',
    '`X-MBX-APIKEY`. The fault id is what `sim.faults.use({ on })` names.',
    '',
    '| operation | REST | WS API method | security | weight | parameters | fault id |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const e of ENDPOINTS) {
    const note = ENDPOINT_NOTES[e.id]!;
    const rest = e.rest ? `\`${e.rest.method} ${e.rest.path}\`` : '';
    const ws = e.ws ? `\`${e.ws}\`` : '';
    const weight = note.weight ?? String(e.weight(none));
    const orders = e.ordersPerRequest === undefined ? 'counts toward ORDERS' : `counts ${e.ordersPerRequest} orders toward ORDERS`;
    const extras = [
      e.referenceOrderTypes ? 'only with `order_types = "reference"`' : '',
      e.freeOnSuccess ? 'weight 0 on success' : '',
      e.countsOrder ? orders : '',
      e.ed25519Only ? 'Ed25519 accounts only' : '',
    ].filter(Boolean);
    out.push(`| ${cell(note.summary)}${extras.length ? ` (${extras.join('; ')})` : ''} | ${rest} | ${ws} | ${e.security} | ${cell(weight)} | ${cell(note.params || '(none)')} | \`${faultId(e)}\` |`);
  }
  return `${out.join('\n').trimEnd()}\n`;
}
