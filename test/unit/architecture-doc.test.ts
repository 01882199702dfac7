// docs/architecture.md names the functions a key travels through; this keeps it true: every
// code name it puts in backticks is defined in src/, and every src/ path it names exists.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DOC = readFileSync('docs/architecture.md', 'utf8');

/** Backticked words of the doc that are not code names (values, conditions, a key's form). */
const PROSE = new Set(['done', 'Migrating', 'Paused=True', 'machine/<name>', 'npm run lint', 'oc']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const SOURCE = sourceFiles('src')
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

/** Defined as a function, class, constant, type, method or property somewhere in src/. */
function isDefined(name: string): boolean {
  const n = name.replace(/[$]/g, '\\$');
  return new RegExp(
    `\\b(function|class|const|let|interface|type)\\s+${n}\\b|^\\s*(private |async |readonly )*${n}\\??\\s*[(:<]`,
    'm',
  ).test(SOURCE);
}

const quoted = [...DOC.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

describe('docs/architecture.md', () => {
  it('names only src/ files and folders that exist', () => {
    const paths = quoted.filter((q) => q.startsWith('src/'));
    expect(paths.length).to.be.greaterThan(20);
    expect(paths.filter((p) => !existsSync(p))).to.deep.equal([]);
  });

  it('names only functions, classes and constants that exist in src/', () => {
    const names = quoted.filter(
      (q) => /^[A-Za-z_][A-Za-z0-9_.]*$/.test(q) && !PROSE.has(q) && !q.includes('/'),
    );
    expect(names.length).to.be.greaterThan(30);
    const missing = names.flatMap((name) => name.split('.')).filter((part) => !isDefined(part));
    expect(missing).to.deep.equal([]);
  });
});
