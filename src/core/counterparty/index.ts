// The counterparty room: the flow on the other side of the account's trades. The seeded generator
// (generator.ts) and the scripted market a test drives by hand (scripted-market.ts) act only
// through the commands any client uses (Exchange.submit with the counterparty commands of
// commands.ts) and read only through the core's queries, never the book's, account's or market's
// rooms; a replayed symbol's recorded day (replay.ts) is the generator's sibling. Everything
// outside the room imports this file.

export { CounterpartyGenerator, type CounterpartyVenue } from './generator.ts';
export { ScriptedMarket, type CounterpartyPort, type ScriptedPlacement } from './scripted-market.ts';
export { ReplayCounterparty, type ReplayVenue } from './replay.ts';
