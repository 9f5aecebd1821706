// The TypeScript API as users see it, read from the sources with the TypeScript compiler: every
// export of the package's entries (`spot-sim`, `spot-sim/fixture`, `spot-sim/playwright`), with
// signatures and doc comments. Members marked @internal (stripped from the published
// declarations) and private members are left out, as in the shipped .d.ts.
import ts from 'typescript';
import { join } from 'node:path';
import { cell, REPO } from './markdown.ts';

export interface ApiMember {
  readonly name: string;
  readonly signature: string;
  readonly doc: string;
}

export interface ApiExport {
  readonly name: string;
  readonly kind: 'class' | 'interface' | 'type' | 'function' | 'const' | 'enum';
  readonly signature: string;
  readonly doc: string;
  readonly members: readonly ApiMember[];
}

export const ENTRIES: readonly { readonly entry: string; readonly file: string }[] = [
  { entry: 'spot-sim', file: 'src/index.ts' },
  { entry: 'spot-sim/fixture', file: 'src/fixture/index.ts' },
  { entry: 'spot-sim/playwright', file: 'src/playwright.ts' },
];

let cached: { program: ts.Program; checker: ts.TypeChecker } | undefined;

function program(): { program: ts.Program; checker: ts.TypeChecker } {
  if (cached) return cached;
  const config = ts.readConfigFile(join(REPO, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO);
  const p = ts.createProgram(ENTRIES.map((e) => join(REPO, e.file)), { ...parsed.options, noEmit: true });
  cached = { program: p, checker: p.getTypeChecker() };
  return cached;
}

const FORMAT = ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope | ts.TypeFormatFlags.WriteArrowStyleSignature;

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker));
  const tags = symbol.getJsDocTags(checker).filter((t) => t.name === 'example' || t.name === 'deprecated');
  const extra = tags.map((t) => `${t.name === 'example' ? 'Example' : 'Deprecated'}: ${ts.displayPartsToString(t.text ?? [])}`);
  return [text, ...extra].filter((s) => s !== '').join('\n');
}

function isHidden(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  if (symbol.getJsDocTags(checker).some((t) => t.name === 'internal')) return true;
  if (symbol.name.startsWith('_') || symbol.name.startsWith('#')) return true;
  return (symbol.declarations ?? []).some((d) => {
    const flags = ts.getCombinedModifierFlags(d as ts.Declaration);
    return (flags & ts.ModifierFlags.Private) !== 0 || (flags & ts.ModifierFlags.Protected) !== 0 || ts.isPrivateIdentifier((d as ts.NamedDeclaration).name as ts.Node);
  });
}

function memberSignature(member: ts.Symbol, checker: ts.TypeChecker, at: ts.Node): string {
  const type = checker.getTypeOfSymbolAtLocation(member, at);
  const calls = type.getCallSignatures();
  const isMethod = (member.flags & ts.SymbolFlags.Method) !== 0;
  if (isMethod && calls.length > 0) return calls.map((s) => `${member.name}${checker.signatureToString(s, at, FORMAT)}`).join('\n');
  const optional = (member.flags & ts.SymbolFlags.Optional) !== 0 ? '?' : '';
  return `${member.name}${optional}: ${checker.typeToString(type, at, FORMAT)}`;
}

function membersOf(symbol: ts.Symbol, checker: ts.TypeChecker, declaration: ts.Declaration): ApiMember[] {
  const type = ts.isClassDeclaration(declaration) ? checker.getDeclaredTypeOfSymbol(symbol) : checker.getDeclaredTypeOfSymbol(symbol);
  const out: ApiMember[] = [];
  for (const member of checker.getPropertiesOfType(type)) {
    if (isHidden(member, checker)) continue;
    out.push({ name: member.name, signature: memberSignature(member, checker, declaration), doc: docOf(member, checker) });
  }
  return out;
}

/** The exports of one entry, sorted by kind then name. */
export function exportsOf(file: string): ApiExport[] {
  const { program: p, checker } = program();
  const source = p.getSourceFile(join(REPO, file));
  if (!source) throw new Error(`not in the program: ${file}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  const out: ApiExport[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (isHidden(symbol, checker)) continue;
    const declaration = symbol.declarations?.[0];
    if (!declaration) continue;
    const doc = docOf(symbol, checker);
    const name = exported.name;
    if (ts.isClassDeclaration(declaration)) {
      const ctor = checker.getTypeOfSymbolAtLocation(symbol, declaration).getConstructSignatures()[0];
      out.push({ name, kind: 'class', signature: `new ${name}${ctor ? checker.signatureToString(ctor, declaration, FORMAT) : '()'}`, doc, members: membersOf(symbol, checker, declaration) });
    } else if (ts.isInterfaceDeclaration(declaration)) {
      out.push({ name, kind: 'interface', signature: `interface ${name}`, doc, members: membersOf(symbol, checker, declaration) });
    } else if (ts.isTypeAliasDeclaration(declaration)) {
      out.push({ name, kind: 'type', signature: `type ${name} = ${declaration.type.getText(source === declaration.getSourceFile() ? source : declaration.getSourceFile()).replace(/\s+/g, ' ')}`, doc, members: [] });
    } else if (ts.isFunctionDeclaration(declaration)) {
      const sigs = checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures();
      out.push({ name, kind: 'function', signature: sigs.map((s) => `${name}${checker.signatureToString(s, declaration, FORMAT)}`).join('\n'), doc, members: [] });
    } else if (ts.isEnumDeclaration(declaration)) {
      out.push({ name, kind: 'enum', signature: `enum ${name}`, doc, members: [] });
    } else if (ts.isVariableDeclaration(declaration)) {
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const text = checker.typeToString(type, declaration, FORMAT);
      out.push({ name, kind: 'const', signature: `const ${name}: ${text.length > 240 ? `${text.slice(0, 237)}...` : text}`, doc, members: [] });
    }
  }
  const order = ['function', 'const', 'class', 'interface', 'type', 'enum'];
  return out.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.name.localeCompare(b.name));
}

/** One class's or interface's public members, with docs (the faults reference uses `Faults`). */
export function membersOfExport(file: string, name: string): readonly ApiMember[] {
  const found = exportsOf(file).find((e) => e.name === name);
  if (!found) throw new Error(`${file} does not export ${name}`);
  return found.members;
}

function fence(code: string): string[] {
  return ['```ts', code, '```'];
}

export function typescriptReference(): string {
  const out = [
    '# TypeScript API reference',
    '',
    'Every export of the package\'s entries, with its signature and doc comment (the same text',
    'IntelliSense shows). Types ship with the package; ESM and CommonJS alike.',
    '',
  ];
  const documented = new Set<string>();
  for (const { entry, file } of ENTRIES) {
    out.push(`## \`${entry}\``, '');
    const all = exportsOf(file);
    const again = all.filter((e) => documented.has(e.name));
    if (again.length > 0) out.push(`Also exports, as documented above: ${again.map((e) => `\`${e.name}\``).join(', ')}.`, '');
    for (const e of all) {
      if (documented.has(e.name)) continue;
      documented.add(e.name);
      out.push(`### ${e.name} (${e.kind})`, '', ...fence(e.signature), '');
      if (e.doc) out.push(e.doc, '');
      if (e.members.length > 0) {
        out.push('| member | doc |', '|---|---|');
        for (const m of e.members) out.push(`| \`${cell(m.signature)}\` | ${cell(m.doc)} |`);
        out.push('');
      }
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
