/**
 * Finds every SQL text handed to better-sqlite3 (`prepare`, `exec`, `pragma`) in a source tree and
 * reports what is not a plain literal: each `${...}` of a template, each `+` operand, each variable
 * or call, followed through `const` declarations of the same file.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface SqlPiece {
  file: string;
  line: number;
  method: string;
  /** The source text of an interpolated expression (or of a non-literal argument). */
  expr: string;
}

const METHODS = new Set(['prepare', 'exec', 'pragma']);

export function listSourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSourceFiles(p));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(p);
  }
  return out.sort();
}

export function scanSql(files: readonly string[], base: string): { calls: number; pieces: SqlPiece[] } {
  const pieces: SqlPiece[] = [];
  let calls = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const consts = new Map<string, ts.Expression>();
    const collect = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) consts.set(node.name.text, node.initializer);
      ts.forEachChild(node, collect);
    };
    collect(sf);
    const rel = path.relative(base, file).split(path.sep).join('/');
    const report = (method: string, node: ts.Node, expr: ts.Node) =>
      pieces.push({ file: rel, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, method, expr: expr.getText(sf).replace(/\s+/g, ' ') });
    const examine = (method: string, call: ts.Node, arg: ts.Expression, seen: Set<string>) => {
      if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return;
      if (ts.isParenthesizedExpression(arg) || ts.isAsExpression(arg)) return examine(method, call, arg.expression, seen);
      if (ts.isTemplateExpression(arg)) {
        for (const span of arg.templateSpans) report(method, call, span.expression);
        return;
      }
      if (ts.isBinaryExpression(arg) && arg.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        examine(method, call, arg.left, seen);
        examine(method, call, arg.right, seen);
        return;
      }
      if (ts.isIdentifier(arg) && consts.has(arg.text) && !seen.has(arg.text)) {
        examine(method, call, consts.get(arg.text)!, new Set([...seen, arg.text]));
        return;
      }
      report(method, call, arg);
    };
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        METHODS.has(node.expression.name.text) &&
        node.arguments.length > 0 &&
        // RegExp#exec shares the name: only a receiver that is a database handle counts.
        (node.expression.name.text !== 'exec' || /(^|\.)db$|database/i.test(node.expression.expression.getText(sf)))
      ) {
        calls++;
        examine(node.expression.name.text, node, node.arguments[0]!, new Set());
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { calls, pieces };
}
