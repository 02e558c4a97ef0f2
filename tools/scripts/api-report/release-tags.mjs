/**
 * Every export of a package's entry points must say who it is for in its JSDoc: `@publicApi`
 * (part of the supported surface, in the API report and the reference) or `@internal`
 * (exported for our other packages or for tests; left out of both). Read with the TypeScript
 * compiler API from the built declarations, where the JSDoc is kept.
 */
import ts from 'typescript';

const TAGS = ['publicApi', 'internal'];

/** `"<entry>: <name>"` for each export of these entry points that has neither tag. */
export function untaggedExports(entries) {
  const program = ts.createProgram(
    entries.map((entry) => entry.dts),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      skipLibCheck: true,
      types: [],
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const untagged = [];
  for (const entry of entries) {
    const file = program.getSourceFile(entry.dts);
    const module = file && checker.getSymbolAtLocation(file);
    if (module === undefined) {
      untagged.push(`${entry.subpath}: cannot read ${entry.dts}`);
      continue;
    }
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(symbol.declarations ?? []).some(isTagged)) {
        untagged.push(`${entry.subpath}: ${exported.name}`);
      }
    }
  }
  return untagged;
}

/**
 * Whether the declaration's JSDoc has one of the tags. As for API Extractor, the JSDoc of a
 * statement that declares several constants belongs to the first one only.
 */
function isTagged(declaration) {
  return ts.getJSDocTags(declaration).some((tag) => TAGS.includes(tag.tagName.text));
}
