// Runs the typed client's type test (e2e/types/client-types.ts) through the compiler with the
// project's options: it must compile, and each `@ts-expect-error` line must still be an error
// (an unused directive is itself an error), so a type that starts to lie fails `npm test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const FILE = join(ROOT, 'e2e/types/client-types.ts');

test('the client type test compiles, with every @ts-expect-error line an error', () => {
  const configPath = join(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  const program = ts.createProgram([FILE], parsed.options);
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === FILE || d.file === undefined);
  const text = diagnostics.map((d) => {
    const where = d.file && d.start !== undefined ? `line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
  assert.deepEqual(text, []);
  // The file has expectations at all (a file emptied by mistake would pass).
  assert.ok((ts.sys.readFile(FILE) ?? '').split('@ts-expect-error').length > 8);
});
