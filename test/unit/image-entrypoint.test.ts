import { expect } from 'chai';
import {
  entrypointNodeFlags,
  imageEnvironment,
  imageNodeFlags,
  runtimeEnvironment,
} from '../../hack/image-entrypoint.js';

describe("the image's node flags, from the Containerfile", () => {
  it('takes the words between node and dist/main.js of the last ENTRYPOINT', () => {
    const containerfile = [
      'FROM base AS builder',
      'ENTRYPOINT ["node", "build.js"]',
      'FROM runtime',
      'ENTRYPOINT ["node", "--max-semi-space-size=8", "--trace-warnings", "dist/main.js"]',
    ].join('\n');
    expect(entrypointNodeFlags(containerfile)).to.deep.equal([
      '--max-semi-space-size=8',
      '--trace-warnings',
    ]);
    expect(entrypointNodeFlags('ENTRYPOINT ["node", "dist/main.js"]')).to.deep.equal([]);
  });

  it('refuses a Containerfile it cannot read the program from, saying why', () => {
    expect(() => entrypointNodeFlags('FROM x\nCMD ["node"]')).to.throw('has no ENTRYPOINT');
    expect(() => entrypointNodeFlags('ENTRYPOINT node dist/main.js')).to.throw('exec form');
    expect(() => entrypointNodeFlags('ENTRYPOINT ["bun", "dist/main.js"]')).to.throw(
      'does not run node dist/main.js',
    );
    expect(() => entrypointNodeFlags('ENTRYPOINT ["node", "other.js"]')).to.throw(
      'does not run node dist/main.js',
    );
  });

  it("reads the project's own Containerfile", () => {
    expect(imageNodeFlags()).to.include.members([
      '--max-semi-space-size=2',
      '--heap-growing-percent=30',
    ]);
  });

  it("takes the runtime stage's ENV, not the builder's", () => {
    const containerfile = [
      'FROM base AS builder',
      'ENV BUILD_ONLY=1',
      'FROM runtime',
      'ENV NODE_ENV=production MALLOC_ARENA_MAX="2"',
      'ENV EMPTY=',
    ].join('\n');
    expect(runtimeEnvironment(containerfile)).to.deep.equal({
      NODE_ENV: 'production',
      MALLOC_ARENA_MAX: '2',
      EMPTY: '',
    });
    expect(() => runtimeEnvironment('FROM x\nENV legacy form')).to.throw('not KEY=VALUE');
  });

  it("reads the project's own environment", () => {
    expect(imageEnvironment()).to.include({
      NODE_ENV: 'production',
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '131072',
    });
  });
});
