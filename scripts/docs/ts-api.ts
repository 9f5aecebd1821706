// The TypeScript API as users see it, read from the sources with the TypeScript compiler: every
// export of the package's entries (`spot-sim`, `spot-sim/fixture`, `spot-sim/playwright`), with
// signatures, doc comments and examples, under a table of contents. Left out, as in the shipped
// .d.ts or because users never call them: members and constructors marked @internal (stripped
// from the published declarations), private and protected ones, and the members every Error has
// (`message`, `stack`...). Every export must have a description and an `@example`
// (`undocumentedExports`, checked by src/reference-docs.test.ts).
import ts from 'typescript';
import { join, relative } from 'node:path';
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
  /** The doc comment with its examples, as IntelliSense shows it (`doc` of a member). */
  readonly doc: string;
  /** The doc comment's text alone. */
  readonly description: string;
  /** The code of each `@example` tag. */
  readonly examples: readonly string[];
  /** Where the declaration is, from the repository root (a missing doc is reported there). */
  readonly source: string;
  /** Exported as a type only (`export type { X }`), or a type or interface: no value to import. */
  readonly typeOnly: boolean;
  readonly members: readonly ApiMember[];
}

export const ENTRIES: readonly { readonly entry: string; readonly file: string }[] = [
  { entry: 'spot-sim', file: 'src/index.ts' },
  { entry: 'spot-sim/fixture', file: 'src/fixture/index.ts' },
  { entry: 'spot-sim/playwright', file: 'src/playwright.ts' },
];

let cached: { program: ts.Program; checker: ts.TypeChecker } | undefined;

/** The program the reference is read from (the examples' check reuses its files). */
export function referenceProgram(): ts.Program {
  return program().program;
}

/** The repository's compiler options (tsconfig.json), without output. */
export function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(REPO, 'tsconfig.json'), ts.sys.readFile);
  return { ...ts.parseJsonConfigFileContent(config.config, ts.sys, REPO).options, noEmit: true };
}

function program(): { program: ts.Program; checker: ts.TypeChecker } {
  if (cached) return cached;
  const p = ts.createProgram(ENTRIES.map((e) => join(REPO, e.file)), compilerOptions());
  cached = { program: p, checker: p.getTypeChecker() };
  return cached;
}

const FORMAT = ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope | ts.TypeFormatFlags.WriteArrowStyleSignature;

function descriptionOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

function examplesOf(symbol: ts.Symbol, checker: ts.TypeChecker): string[] {
  return symbol.getJsDocTags(checker).filter((t) => t.name === 'example').map((t) => ts.displayPartsToString(t.text ?? []).trim());
}

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const tags = symbol.getJsDocTags(checker).filter((t) => t.name === 'example' || t.name === 'deprecated');
  const extra = tags.map((t) => `${t.name === 'example' ? 'Example' : 'Deprecated'}: ${ts.displayPartsToString(t.text ?? [])}`);
  return [descriptionOf(symbol, checker), ...extra].filter((s) => s !== '').join('\n');
}

function isHiddenDeclaration(d: ts.Declaration): boolean {
  if (ts.getJSDocTags(d).some((t) => t.tagName.text === 'internal')) return true;
  const flags = ts.getCombinedModifierFlags(d);
  return (flags & ts.ModifierFlags.Private) !== 0 || (flags & ts.ModifierFlags.Protected) !== 0;
}

function isHidden(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  if (symbol.getJsDocTags(checker).some((t) => t.name === 'internal')) return true;
  if (symbol.name.startsWith('_') || symbol.name.startsWith('#')) return true;
  const declarations = symbol.declarations ?? [];
  // What every Error (or another platform type) has: not this package's to document.
  const { program: p } = program();
  if (declarations.length > 0 && declarations.every((d) => p.isSourceFileDefaultLibrary(d.getSourceFile()))) return true;
  return declarations.some((d) => isHiddenDeclaration(d) || ts.isPrivateIdentifier((d as ts.NamedDeclaration).name as ts.Node));
}

/** A class's constructor as users may call it, or null when it is @internal, private or protected. */
function publicConstructor(symbol: ts.Symbol, declaration: ts.ClassDeclaration, checker: ts.TypeChecker): string | null {
  const own = declaration.members.filter(ts.isConstructorDeclaration);
  if (own.length > 0 && own.every(isHiddenDeclaration)) return null;
  // An inherited constructor is hidden when the base class hides its own.
  const base = declaration.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
  if (own.length === 0 && base) {
    const baseSymbol = checker.getSymbolAtLocation(base.expression);
    const baseDeclaration = (baseSymbol && (baseSymbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(baseSymbol) : baseSymbol))?.declarations?.[0];
    if (baseDeclaration && ts.isClassDeclaration(baseDeclaration) && baseDeclaration.members.filter(ts.isConstructorDeclaration).some(isHiddenDeclaration)) return null;
  }
  const ctor = checker.getTypeOfSymbolAtLocation(symbol, declaration).getConstructSignatures()[0];
  return ctor ? checker.signatureToString(ctor, declaration, FORMAT) : '()';
}

function memberSignature(member: ts.Symbol, checker: ts.TypeChecker, at: ts.Node): string {
  const type = checker.getTypeOfSymbolAtLocation(member, at);
  const calls = type.getCallSignatures();
  const isMethod = (member.flags & ts.SymbolFlags.Method) !== 0;
  if (isMethod && calls.length > 0) return calls.map((s) => `${member.name}${checker.signatureToString(s, at, FORMAT)}`).join('\n');
  const optional = (member.flags & ts.SymbolFlags.Optional) !== 0 ? '?' : '';
  // A property as declared (`faults: FixtureFaults`), rather than its expansion.
  const declared = member.declarations?.find((d): d is ts.PropertySignature | ts.PropertyDeclaration => (ts.isPropertySignature(d) || ts.isPropertyDeclaration(d)) && d.type !== undefined);
  if (declared?.type) return `${member.name}${optional}: ${declared.type.getText(declared.getSourceFile()).replace(/\s+/g, ' ')}`;
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

/** A type alias's right-hand side; expanded when it only renames a type users cannot name (`type Side = WireSide`). */
function aliasedText(declaration: ts.TypeAliasDeclaration, checker: ts.TypeChecker): string {
  const text = declaration.type.getText(declaration.getSourceFile()).replace(/\s+/g, ' ');
  if (!ts.isTypeReferenceNode(declaration.type) || declaration.type.typeArguments !== undefined) return text;
  return checker.typeToString(checker.getTypeAtLocation(declaration.type), declaration, FORMAT | ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias);
}

/** Whether an export reaches its entry only through `export type` somewhere on the way. */
function isTypeOnlyExport(exported: ts.Symbol, checker: ts.TypeChecker): boolean {
  let symbol: ts.Symbol | undefined = exported;
  for (let hops = 0; symbol && symbol.flags & ts.SymbolFlags.Alias && hops < 10; hops++) {
    if ((symbol.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d))) return true;
    symbol = checker.getImmediateAliasedSymbol(symbol);
  }
  return false;
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
    const name = exported.name;
    const common = {
      name,
      doc: docOf(symbol, checker),
      description: descriptionOf(symbol, checker),
      examples: examplesOf(symbol, checker),
      source: `${relative(REPO, declaration.getSourceFile().fileName)}:${declaration.getSourceFile().getLineAndCharacterOfPosition(declaration.getStart()).line + 1}`,
      typeOnly: isTypeOnlyExport(exported, checker) || ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration),
    };
    if (ts.isClassDeclaration(declaration)) {
      const ctor = publicConstructor(symbol, declaration, checker);
      out.push({ ...common, kind: 'class', signature: ctor === null ? `class ${name}` : `new ${name}${ctor}`, members: membersOf(symbol, checker, declaration) });
    } else if (ts.isInterfaceDeclaration(declaration)) {
      out.push({ ...common, kind: 'interface', signature: `interface ${name}`, members: membersOf(symbol, checker, declaration) });
    } else if (ts.isTypeAliasDeclaration(declaration)) {
      out.push({ ...common, kind: 'type', signature: `type ${name} = ${aliasedText(declaration, checker)}`, members: [] });
    } else if (ts.isFunctionDeclaration(declaration)) {
      const sigs = checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures();
      out.push({ ...common, kind: 'function', signature: sigs.map((s) => `${name}${checker.signatureToString(s, declaration, FORMAT)}`).join('\n'), members: [] });
    } else if (ts.isEnumDeclaration(declaration)) {
      out.push({ ...common, kind: 'enum', signature: `enum ${name}`, members: [] });
    } else if (ts.isVariableDeclaration(declaration)) {
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const text = checker.typeToString(type, declaration, FORMAT);
      out.push({ ...common, kind: 'const', signature: `const ${name}: ${text.length > 240 ? `${text.slice(0, 237)}...` : text}`, members: [] });
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

/** Each export once, under the first entry that exports it, in the reference's order. */
export function documentedExports(): { entry: string; exports: ApiExport[]; again: string[] }[] {
  const seen = new Set<string>();
  return ENTRIES.map(({ entry, file }) => {
    const all = exportsOf(file);
    const again = all.filter((e) => seen.has(e.name)).map((e) => e.name);
    const exports = all.filter((e) => !seen.has(e.name));
    for (const e of exports) seen.add(e.name);
    return { entry, exports, again };
  });
}

/** Exports without a description or without an example, as `entry name (source): what is missing`. */
export function undocumentedExports(): string[] {
  return documentedExports().flatMap(({ entry, exports }) =>
    exports.flatMap((e) => {
      const missing = [e.description === '' ? 'a description' : '', e.examples.length === 0 ? 'an @example' : ''].filter(Boolean);
      return missing.length === 0 ? [] : [`${entry} ${e.name} (${e.source}) lacks ${missing.join(' and ')}`];
    }),
  );
}

/** The heading of an export and the anchor GitHub gives it. */
function heading(e: ApiExport): { text: string; anchor: string } {
  const text = `${e.name} (${e.kind})`;
  return { text, anchor: text.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-') };
}

const KIND_TITLES: Record<ApiExport['kind'], string> = { function: 'functions', const: 'values', class: 'classes', interface: 'interfaces', type: 'types', enum: 'enums' };

export function typescriptReference(): string {
  const entries = documentedExports();
  const out = [
    '# TypeScript API reference',
    '',
    'Every export of the package\'s entries, with its signature, doc comment (the same text',
    'IntelliSense shows) and an example. Types ship with the package; ESM and CommonJS alike. In the',
    'examples, `sim`, `client`, `faults`, `market` and `page` are what the fixture hands a test',
    '([fixture.md](../fixture.md)); outside Playwright, `const sim = await startSimulator()` and',
    '`const client = new SpotSimClient(sim)`.',
    '',
    '## Contents',
    '',
  ];
  for (const { entry, exports } of entries) {
    out.push(`- [\`${entry}\`](#${entry.replace(/[^a-z0-9-]/g, '')})`);
    for (const kind of Object.keys(KIND_TITLES) as ApiExport['kind'][]) {
      const of = exports.filter((e) => e.kind === kind);
      if (of.length > 0) out.push(`  - ${KIND_TITLES[kind]}: ${of.map((e) => `[${e.name}](#${heading(e).anchor})`).join(', ')}`);
    }
  }
  out.push('');
  for (const { entry, exports, again } of entries) {
    out.push(`## \`${entry}\``, '');
    if (again.length > 0) out.push(`Also exports, as documented above: ${again.map((n) => `\`${n}\``).join(', ')}.`, '');
    for (const e of exports) {
      out.push(`### ${heading(e).text}`, '', ...fence(e.signature), '');
      if (e.description) out.push(e.description, '');
      for (const example of e.examples) out.push('Example:', '', ...fence(example), '');
      if (e.members.length > 0) {
        out.push('| member | doc |', '|---|---|');
        for (const m of e.members) out.push(`| \`${cell(m.signature)}\` | ${cell(m.doc)} |`);
        out.push('');
      }
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
