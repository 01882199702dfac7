// One Node.js major everywhere: the image's (Containerfile), the one the scripts run on
// (.node-version), the one package.json asks for and the one the type definitions describe.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect } from 'chai';

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFile(join(ROOT, file), 'utf8');

describe('the Node.js major', () => {
  it('is the same in the Containerfile, .node-version, engines and @types/node', async () => {
    const pinned = (await read('.node-version')).trim();
    expect(pinned).to.match(/^\d+\.\d+\.\d+$/);
    const major = pinned.split('.')[0];

    const images = [...(await read('Containerfile')).matchAll(/^FROM \S+\/nodejs-(\d+)\S*/gm)];
    expect(images, 'FROM …/nodejs-<major> lines').to.have.length(2);
    expect(images.map((m) => m[1])).to.deep.equal([major, major]);

    const pkg = JSON.parse(await read('package.json')) as {
      engines: { node: string };
      devDependencies: Record<string, string>;
    };
    expect(pkg.engines.node).to.match(new RegExp(`^>=${major}\\.`));
    expect(pkg.devDependencies['@types/node']).to.match(new RegExp(`^\\^${major}\\.`));
  });
});
