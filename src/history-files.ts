// History at start (API.md section 9): reads the `[[sim.history.klines]]` CSV files (the one
// place the history touches the file system) and builds the simulator's shared history from
// them and the seed. A file that cannot be read or parsed fails the start with the key's path.

import { readFileSync } from 'node:fs';
import type { Config } from './config/types.ts';
import { buildHistory, parseKlineCsv, type CsvCandles, type MarketHistory } from './core/market/index.ts';
import { buildMarkets } from './core/markets.ts';

export type { MarketHistory } from './core/market/index.ts';

export function loadMarketHistory(config: Config, start: number): MarketHistory {
  const markets = buildMarkets(config);
  const csv: CsvCandles[] = config.sim.history.klines.map((entry, i) => {
    const key = `sim.history.klines[${i}].file`;
    let text: string;
    try {
      text = readFileSync(entry.file, 'utf8');
    } catch (error) {
      throw new Error(`${key}: cannot read ${entry.file} (${(error as Error).message})`);
    }
    const rows = parseKlineCsv(text);
    if (typeof rows === 'string') throw new Error(`${key}: ${entry.file}: ${rows}`);
    return { symbolIndex: markets.bySymbol.get(entry.symbol)!.index, rows };
  });
  return buildHistory(config, markets.instruments, start, csv);
}
