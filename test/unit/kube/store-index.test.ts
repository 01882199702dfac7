import { expect } from 'chai';
import { StoreIndex } from '../../../src/kube/store-index.js';

interface Item {
  tags: string[];
}

describe('StoreIndex', () => {
  let index: StoreIndex<Item>;

  beforeEach(() => {
    index = new StoreIndex<Item>((item) => item.tags);
  });

  it('finds the keys of the objects under a value, in the order they were indexed', () => {
    index.set('a', { tags: ['x'] });
    index.set('b', { tags: ['x', 'y'] });
    index.set('c', { tags: ['y'] });
    expect(index.keys('x')).to.deep.equal(['a', 'b']);
    expect(index.keys('y')).to.deep.equal(['b', 'c']);
    expect(index.keys('z')).to.deep.equal([]);
  });

  it('moves a key when its object changes values, and keeps its place when they stay', () => {
    index.set('a', { tags: ['x'] });
    index.set('b', { tags: ['x'] });
    index.set('a', { tags: ['x'] });
    expect(index.keys('x'), 'unchanged').to.deep.equal(['a', 'b']);
    index.set('a', { tags: ['y'] });
    expect(index.keys('x')).to.deep.equal(['b']);
    expect(index.keys('y')).to.deep.equal(['a']);
  });

  it('forgets a key that is deleted or whose object has no values any more', () => {
    index.set('a', { tags: ['x'] });
    index.set('b', { tags: ['x'] });
    index.delete('a');
    index.set('b', { tags: [] });
    index.delete('missing');
    expect(index.keys('x')).to.deep.equal([]);
  });

  it('lists a key once when its object gives a value twice', () => {
    index.set('a', { tags: ['x', 'x'] });
    index.delete('a');
    expect(index.keys('x')).to.deep.equal([]);
    index.set('a', { tags: ['x', 'x'] });
    expect(index.keys('x')).to.deep.equal(['a']);
  });

  it('returns a copy that later changes leave alone', () => {
    index.set('a', { tags: ['x'] });
    const keys = index.keys('x');
    index.set('b', { tags: ['x'] });
    expect(keys).to.deep.equal(['a']);
  });

  it('clear forgets everything', () => {
    index.set('a', { tags: ['x'] });
    index.clear();
    expect(index.keys('x')).to.deep.equal([]);
  });
});
