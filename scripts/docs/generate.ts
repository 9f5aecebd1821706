// `npm run docs`: writes docs/reference/*.md from the sources they describe (the endpoint table,
// the stream names,
// the configuration schema and its commented default, the fault calls and rules, the control
// API's routes, the TypeScript API), and the JSON Schema of the configuration file shipped beside
// its commented default. `--check` writes nothing and exits 1 when a file is stale;
// src/reference-docs.test.ts runs the same comparison in `npm test`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configurationReference } from './configuration.ts';
import { configSchemaText, SCHEMA_PATH } from './config-schema.ts';
import { endpointsReference } from './endpoints.ts';
import { faultsReference } from './faults.ts';
import { streamsReference } from './streams.ts';
import { GENERATED_NOTE, REPO } from './markdown.ts';
import { typescriptReference } from './ts-api.ts';

/** Each generated file: its path under the repository and its content. */
export function referenceFiles(): { path: string; content: string }[] {
  const files = {
    'docs/reference/endpoints.md': endpointsReference(),
    'docs/reference/streams.md': streamsReference(),
    'docs/reference/configuration.md': configurationReference(),
    'docs/reference/faults.md': faultsReference(),
    'docs/reference/typescript-api.md': typescriptReference(),
  };
  const markdown = Object.entries(files).map(([path, content]) => ({ path, content: `${GENERATED_NOTE}\n\n${content}` }));
  return [...markdown, { path: SCHEMA_PATH, content: configSchemaText() }];
}

/** The generated files whose committed copy differs from what the sources give. */
export function staleReferenceFiles(): string[] {
  return referenceFiles()
    .filter(({ path, content }) => {
      try {
        return readFileSync(join(REPO, path), 'utf8') !== content;
      } catch {
        return true;
      }
    })
    .map((f) => f.path);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const stale = staleReferenceFiles();
    if (stale.length > 0) {
      console.error(`stale: ${stale.join(', ')} (run npm run docs)`);
      process.exit(1);
    }
  } else {
    for (const { path, content } of referenceFiles()) {
      mkdirSync(dirname(join(REPO, path)), { recursive: true });
      writeFileSync(join(REPO, path), content);
      console.log(`wrote ${path}`);
    }
  }
}
