// Shared labels and annotations: ours follow MAPI, others' stay, the record says which are ours.
import { expect } from 'chai';
import fc from 'fast-check';
import { OWNED_METADATA_ANNOTATION } from '../../../src/model/markers.js';
import { mergeOwnedMetadata, ownedMetadataDiffers } from '../../../src/sync/owned-metadata.js';

const record = (labels: string[], annotations: string[]) => JSON.stringify({ labels, annotations });

describe('mergeOwnedMetadata', () => {
  it('writes what is wanted and records it as ours', () => {
    const merged = mergeOwnedMetadata({}, { labels: { b: '2', a: '1' }, annotations: { x: 'y' } });
    expect(merged.labels).to.deep.equal({ a: '1', b: '2' });
    expect(merged.annotations).to.deep.equal({
      x: 'y',
      [OWNED_METADATA_ANNOTATION]: record(['a', 'b'], ['x']),
    });
  });

  it("keeps another writer's keys, removes ours that are no longer wanted, and updates ours", () => {
    const current = {
      labels: { ours: 'old', gone: 'v', theirs: 'kept' },
      annotations: {
        'cost.example.com/team': 'a',
        [OWNED_METADATA_ANNOTATION]: record(['gone', 'ours'], []),
      },
    };
    const merged = mergeOwnedMetadata(current, { labels: { ours: 'new' }, annotations: {} });
    expect(merged.labels).to.deep.equal({ ours: 'new', theirs: 'kept' });
    expect(merged.annotations).to.deep.equal({
      'cost.example.com/team': 'a',
      [OWNED_METADATA_ANNOTATION]: record(['ours'], []),
    });
  });

  it('counts every key as ours on an object written before the record existed, as it was', () => {
    const merged = mergeOwnedMetadata(
      { labels: { old: 'v', kept: 'v' }, annotations: { a: 'b' } },
      { labels: { kept: 'v' }, annotations: {} },
    );
    expect(merged.labels).to.deep.equal({ kept: 'v' });
    expect(merged.annotations).to.deep.equal({
      [OWNED_METADATA_ANNOTATION]: record(['kept'], []),
    });
  });

  it('counts as ours only the keys it is told to on an object without a record', () => {
    const current = {
      labels: { ours: 'old', theirs: 'kept' },
      annotations: { paused: '', 'provider.example.com/applied': 'x' },
    };
    const unrecorded = { labels: ['ours'], annotations: ['paused', 'hash'] };
    const desired = { labels: { ours: 'new' }, annotations: { hash: 'h' } };
    const merged = mergeOwnedMetadata(current, desired, unrecorded);
    expect(merged.labels).to.deep.equal({ ours: 'new', theirs: 'kept' });
    expect(merged.annotations).to.deep.equal({
      'provider.example.com/applied': 'x',
      hash: 'h',
      [OWNED_METADATA_ANNOTATION]: record(['ours'], ['hash']),
    });
    // Once recorded, the record says which keys are ours.
    expect(ownedMetadataDiffers(merged, desired, unrecorded)).to.equal(false);
  });

  it('reads a record that is not JSON as no record, and one with foreign entries without them', () => {
    expect(
      mergeOwnedMetadata(
        { labels: { a: '1' }, annotations: { [OWNED_METADATA_ANNOTATION]: 'not json' } },
        {},
      ).labels,
    ).to.deep.equal({});
    expect(
      mergeOwnedMetadata(
        {
          labels: { a: '1', b: '2' },
          annotations: { [OWNED_METADATA_ANNOTATION]: '{"labels":["a",3],"annotations":null}' },
        },
        {},
      ).labels,
    ).to.deep.equal({ b: '2' });
  });

  it('is a fixed point: what it writes needs no further write, whatever others added', () => {
    const map = fc.dictionary(fc.stringMatching(/^[a-z]{1,3}$/), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(map, map, map, map, (labels, annotations, wantedLabels, wantedAnnotations) => {
        const desired = { labels: wantedLabels, annotations: wantedAnnotations };
        const once = mergeOwnedMetadata({ labels, annotations }, desired);
        expect(ownedMetadataDiffers(once, desired)).to.equal(false);
        for (const [key, value] of Object.entries(wantedLabels)) {
          expect(once.labels[key]).to.equal(value);
        }
        // Someone adds a key of their own: it stays, and nothing needs writing for it.
        const theirs = { ...once, labels: { ...once.labels, 'their-key': 'v' } };
        expect(ownedMetadataDiffers(theirs, desired)).to.equal(false);
      }),
    );
  });
});
