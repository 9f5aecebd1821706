// Shared support of the control-API specs (API.md sections 5 and 6): raw requests to
// `/sim/v1/...` on either listener through Playwright's request context, as a bot in another
// language sends them, and the fixture's `test` with a worker configuration of its own plus a
// `control` fixture for them.
import type { APIRequestContext } from '@playwright/test';
import { expect, type SimConfigInput, type Simulator } from 'spot-sim/fixture';
import { withSimConfig } from './helpers.ts';
import type { Listener } from './rest.ts';

export interface ControlReply {
  readonly status: number;
  readonly body: any;
}

/** Raw requests to `/sim/v1/...` on either listener (the fixture certificate accepted). */
export class Control {
  constructor(
    private readonly ctx: APIRequestContext,
    private readonly sim: Simulator,
  ) {}

  async request(listener: Listener, method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, body?: unknown, headers: Record<string, string> = {}): Promise<ControlReply> {
    const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await this.ctx.fetch(`${this.sim.urls[listener]}/sim/v1/${route}`, {
      method,
      data,
      // A local tool declares JSON on every change (a body or not); the control API refuses a change without it.
      headers: { ...(method === 'GET' ? {} : { 'Content-Type': 'application/json' }), ...headers },
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: asserted as text
    }
    return { status: res.status(), body: parsed };
  }

  /** `POST /sim/v1/faults/<method>` that must succeed; returns `result`. */
  async fault(listener: Listener, method: string, args: Record<string, unknown> = {}): Promise<unknown> {
    const reply = await this.request(listener, 'POST', `faults/${method}`, args);
    expect(reply, `POST /sim/v1/faults/${method} ${JSON.stringify(args)}`).toMatchObject({ status: 200 });
    expect(Object.keys(reply.body)).toEqual(['result']);
    return reply.body.result;
  }
}

/** The fixture's `test` on a worker configured with `simConfig`, with `control` on its simulator. */
export function controlTestWith(simConfig: SimConfigInput) {
  return withSimConfig(simConfig).extend<{ control: Control }>({
    control: async ({ playwright, sim }, use) => {
      const ctx = await playwright.request.newContext({ ignoreHTTPSErrors: true });
      await use(new Control(ctx, sim));
      await ctx.dispose();
    },
  });
}
