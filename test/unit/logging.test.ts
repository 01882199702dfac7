import { expect } from 'chai';
import { setImmediate as tick } from 'node:timers/promises';
import winston from 'winston';
import { createLogger } from '../../src/logging.js';

/** The lines a logger writes to stderr while `act` runs. */
async function stderrOf(act: () => void): Promise<string[]> {
  const lines: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  try {
    act();
    await tick();
  } finally {
    process.stderr.write = original;
  }
  return lines.flatMap((l) => l.split('\n')).filter(Boolean);
}

describe('createLogger', () => {
  it('writes the lines at or above its level, with their fields, children included', async () => {
    const lines = await stderrOf(() => {
      const logger = createLogger('info', 'json');
      logger.debug('dropped');
      logger.info('kept', { machine: 'a' });
      const child = logger.child({ machineSet: 'fleet' });
      child.debug('dropped too');
      child.warn('kept too');
    });
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => [p.level, p.message])).to.deep.equal([
      ['info', 'kept'],
      ['warn', 'kept too'],
    ]);
    expect(parsed[0]).to.include({ machine: 'a' });
    expect(parsed[1]).to.include({ machineSet: 'fleet' });
  });

  it('at debug writes everything', async () => {
    const lines = await stderrOf(() => {
      const logger = createLogger('debug', 'text');
      logger.child({ machine: 'a' }).debug('seen');
      logger.error('seen too');
    });
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(/DEBUG seen \{"machine":"a"\}/);
    expect(lines[1]).to.match(/ERROR seen too/);
  });

  it('hands winston no line below its level (winston would filter it only after its streams)', async () => {
    const proto = winston.Logger.prototype as unknown as { write: (...args: unknown[]) => boolean };
    const write = proto.write;
    let written = 0;
    proto.write = function (this: unknown, ...args: unknown[]) {
      written++;
      return write.apply(this, args);
    };
    try {
      await stderrOf(() => {
        const logger = createLogger('info', 'json');
        for (let i = 0; i < 10; i++) logger.child({ machine: `m${i}` }).debug('reconciled');
      });
      expect(written).to.equal(0);
    } finally {
      proto.write = write;
    }
  });
});
