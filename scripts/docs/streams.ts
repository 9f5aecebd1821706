// docs/reference/streams.md: every market-data stream name the server accepts, from the same
// lists the server builds its table of valid names from (market-streams.ts for the event and
// depth streams, market-data-pushes.ts for klines, tickers, avgPrice, partial depth, aggTrade).
import { KLINE_INTERVALS } from '../../src/core/market/index.ts';
import { marketDataStreams, type StreamSpec } from '../../src/net/market-data-pushes.ts';
import { EVENT_STREAM_SUFFIXES } from '../../src/net/market-streams.ts';

const SYMBOL = 'SYMBOL';

/** When each kind of stream pushes (API.md 9 decisions; spec 1.6 for the event streams). */
function speed(spec: StreamSpec | undefined, name: string): string {
  if (spec === undefined) {
    if (name.endsWith('@trade')) return 'each trade, as it happens';
    if (name.endsWith('@bookTicker')) return 'each change of the best bid or ask, with the depth batch';
    return 'each depth batch (`depth_update_ms`, default 100 ms), only when the book changed';
  }
  switch (spec.kind) {
    case 'aggTrade':
      return 'each aggregate trade, as it happens';
    case 'kline':
      return '2000 ms (`1s`: 1000 ms) with the open candle, plus one final `x: true` push when it closes';
    case 'partialDepth':
      return `${spec.periodMs} ms`;
    default:
      return '1000 ms';
  }
}

export function streamsReference(): string {
  const specs = marketDataStreams([SYMBOL]);
  const lower = SYMBOL.toLowerCase();
  const rows = new Map<string, string>();
  const add = (name: string, spec: StreamSpec | undefined) => {
    const shown = name.replace(lower, '<symbol>').replace(/@kline_[0-9a-zA-Z]+/, '@kline_<interval>');
    if (!rows.has(shown)) rows.set(shown, speed(spec, name));
  };
  for (const suffix of EVENT_STREAM_SUFFIXES) add(lower + suffix, undefined);
  for (const [name, spec] of specs) add(name, spec);
  const out = [
    '# Market-data streams',
    '',
    'Every stream name the server accepts, on `/ws/<name>` (raw), `/stream?streams=<a>/<b>` (combined,',
    '`{stream, data}`) and by `SUBSCRIBE` on either. `<symbol>` is a configured symbol in lowercase',
    '(`btcusdt`). Pushes run on the simulator\'s clock (the manual clock included), only while a stream',
    'has a subscriber.',
    '',
    `Kline intervals: ${[...KLINE_INTERVALS.keys()].map((i) => `\`${i}\``).join(', ')}.`,
    '',
    '| stream | pushes |',
    '|---|---|',
    ...[...rows].map(([name, when]) => `| \`${name}\` | ${when} |`),
  ];
  return `${out.join('\n')}\n`;
}
