// `GET /sim/v1/openapi.json` (API.md section 5): the control API described as OpenAPI 3.1,
// generated from the route table the dispatcher serves (control-routes.ts), so the description
// cannot leave a route out or describe one that is not there (control-openapi.test.ts checks
// the description against the live routes).

import { CONTROL_ROUTES, type ControlRoute } from './control-routes.ts';

const ERROR_BODY = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message'],
      properties: {
        message: { type: 'string' },
        code: { type: 'integer', description: "the reference exchange's error code (scripted-market refusals)" },
        type: { type: 'string', description: 'the in-process error class: FaultError, FaultRangeError, FaultRuleError, RangeError, SpotSimError, ControlError' },
      },
    },
  },
} as const;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad arguments or body',
  401: 'Missing or wrong bearer token (with control_token)',
  403: 'Not a local tool (Host or Origin)',
  404: 'Unknown route or resource',
  405: 'Known route, wrong method (Allow lists the methods)',
  409: 'State conflict',
  415: 'A state-changing request without Content-Type: application/json (and without the control token)',
};

function operation(route: ControlRoute): Record<string, unknown> {
  const errors = [400, 401, 403, ...(route.method === 'GET' ? [] : [415]), ...(route.errors ?? [])].sort();
  const responses: Record<string, unknown> = {
    200: {
      description: 'Done',
      content: { 'application/json': { schema: { type: 'object', required: ['result'], properties: { result: route.result } } } },
    },
  };
  for (const status of errors) responses[status] = { description: STATUS_TEXT[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const op: Record<string, unknown> = { operationId: route.call, summary: route.summary, responses };
  if (route.path.includes('{id}')) op.parameters = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }];
  if (route.query !== undefined) op.parameters = route.query.map((a) => ({ name: a.name, in: 'query', required: false, schema: a.schema }));
  if (route.body === 'object') {
    op.requestBody = { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/FaultRule' } } } };
  } else if (route.body !== 'none') {
    const properties = Object.fromEntries(route.body.args.map((a) => [a.name, a.schema]));
    const required = route.body.optionalArgs === true ? [] : route.body.args.map((a) => a.name);
    op.requestBody = { required: required.length > 0, content: { 'application/json': { schema: { type: 'object', properties, required, additionalProperties: false } } } };
  }
  return op;
}

/** The OpenAPI 3.1 document of the control API. */
export function controlOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of CONTROL_ROUTES) (paths[`/${route.path}`] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'spot-sim control API',
      version: '1',
      description:
        'Drives a running spot-sim: faults and fault rules, the scripted market, the clock, reset, stats. ' +
        'Bodies are JSON objects of named arguments; answers are {"result": ...} or {"error": {"message", "code"?, "type"?}}.',
    },
    servers: [{ url: '/sim/v1' }],
    paths,
    components: {
      schemas: {
        Error: ERROR_BODY,
        FaultRule: {
          type: 'object',
          required: ['on', 'action'],
          properties: {
            on: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: "endpoint ids (GET /faults/endpoints) or '*'" },
            transport: { enum: ['rest', 'ws-api'] },
            times: { type: 'integer', minimum: 0, description: 'default 1; 0 = until removed' },
            action: {
              oneOf: [
                { type: 'object', required: ['error'], properties: { error: { type: 'integer' } }, additionalProperties: false },
                { type: 'object', required: ['status', 'code', 'msg'], properties: { status: { type: 'integer' }, code: { type: 'integer' }, msg: { type: 'string' } }, additionalProperties: false },
                { type: 'object', required: ['delayMs'], properties: { delayMs: { type: 'integer', minimum: 0 } }, additionalProperties: false },
                { type: 'object', required: ['swallow'], properties: { swallow: { const: true } }, additionalProperties: false },
                { type: 'object', required: ['close'], properties: { close: { const: true } }, additionalProperties: false },
              ],
            },
          },
          additionalProperties: false,
        },
      },
      securitySchemes: { controlToken: { type: 'http', scheme: 'bearer', description: 'needed only when control_token is set' } },
    },
  };
}
