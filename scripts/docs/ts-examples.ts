// The `@example` of every export of the TypeScript reference, type-checked against the sources
// (src/reference-docs.test.ts), so an example cannot rot: each is the body of an async function in
// one virtual file that imports every export by name and declares what the fixture hands a test
// (`sim`, `client`, `faults`, `market`, `page`), as the reference's introduction says. An
// example's own imports go to the top of the file (those of the package are there already), and
// `export` in it is dropped (a config file's `export default defineConfig(...)` is checked as an
// expression).
import ts from 'typescript';
import { join } from 'node:path';
import { REPO } from './markdown.ts';
import { compilerOptions, documentedExports, referenceProgram } from './ts-api.ts';

const VIRTUAL = join(REPO, 'scripts/docs/__examples__.ts');

const CONTEXT = [
  "declare const sim: Simulator;",
  "declare const client: SpotSimClient;",
  "declare const faults: FixtureFaults;",
  "declare const market: FixtureMarket;",
  "declare const page: import('@playwright/test').Page;",
];

const IMPORT = /^import\s.*\sfrom\s+'([^']+)';\s*$/;
const PACKAGE_ENTRY = /^spot-sim(\/.*)?$/;

/** The virtual file, and which example each of its lines belongs to. */
export function examplesFile(): { text: string; owner: (line: number) => string | undefined } {
  const lines: string[] = [];
  const owners: (string | undefined)[] = [];
  const push = (line: string, owner?: string) => {
    lines.push(line);
    owners.push(owner);
  };
  const entries = documentedExports();
  for (const { entry, exports } of entries) {
    const names = exports.map((e) => (e.typeOnly ? `type ${e.name}` : e.name));
    push(`import { ${names.join(', ')} } from '${entry}';`);
  }
  const imports = new Map<string, string>();
  const bodies: { owner: string; lines: string[] }[] = [];
  for (const { entry, exports } of entries) {
    for (const e of exports) {
      for (const example of e.examples) {
        const owner = `${entry} ${e.name} (${e.source})`;
        const lines: string[] = [];
        for (const line of example.split('\n')) {
          const from = IMPORT.exec(line)?.[1];
          if (from === undefined) lines.push(line.replace(/^export (default )?/, ''));
          else if (!PACKAGE_ENTRY.test(from) && !imports.has(line)) imports.set(line, owner);
        }
        bodies.push({ owner, lines });
      }
    }
  }
  for (const [line, owner] of imports) push(line, owner);
  for (const line of CONTEXT) push(line);
  bodies.forEach(({ owner, lines }, n) => {
    push(`export async function example${n}(): Promise<void> {`, owner);
    for (const line of lines) push(`  ${line}`, owner);
    push('}', owner);
  });
  return { text: `${lines.join('\n')}\n`, owner: (line) => owners[line] };
}

/** Every compiler error in the examples, as `owner: message`. */
export function exampleErrors(): string[] {
  const { text, owner } = examplesFile();
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError, create) => (file === VIRTUAL ? ts.createSourceFile(file, text, language, true) : read(file, language, onError, create));
  const exists = host.fileExists.bind(host);
  host.fileExists = (file) => file === VIRTUAL || exists(file);
  const p = ts.createProgram([VIRTUAL], options, host, referenceProgram());
  const source = p.getSourceFile(VIRTUAL)!;
  return [...p.getSyntacticDiagnostics(source), ...p.getSemanticDiagnostics(source)].map((d) => {
    const line = d.start === undefined ? -1 : source.getLineAndCharacterOfPosition(d.start).line;
    return `${owner(line) ?? `line ${line + 1}`}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
