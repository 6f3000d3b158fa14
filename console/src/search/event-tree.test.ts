import { describe, expect, it } from 'vitest';
import { eventTree, pathParts, summaryLine, type EventNode } from './event-tree.js';

function plain(node: EventNode): unknown {
  switch (node.kind) {
    case 'leaf':
      return node.value;
    case 'object':
      return Object.fromEntries([...node.entries].map(([k, v]) => [k, plain(v)]));
    case 'array':
      return [...node.items].map(([i, v]) => [i, plain(v)]);
  }
}

describe('an event as a tree', () => {
  it('splits column names into keys and indexes', () => {
    expect(pathParts('a.b[0].c')).toEqual(['a', 'b', 0, 'c']);
    expect(pathParts('m[1][2]')).toEqual(['m', 1, 2]);
    expect(pathParts('plain')).toEqual(['plain']);
  });

  it('nests the flat columns of an event, leaving system columns out', () => {
    const tree = eventTree({
      '@svc.datetime': '2024-05-01T00:00:00Z',
      'user.name': 'bob',
      'user.id': 7,
      'tags[0]': 'a',
      'tags[1]': 'b',
      'req[0].path': '/x',
      msg: null,
    });
    expect(plain(tree)).toEqual({
      user: { name: 'bob', id: 7 },
      tags: [
        [0, 'a'],
        [1, 'b'],
      ],
      req: [[0, { path: '/x' }]],
      msg: null,
    });
  });

  it("keeps each leaf's column name, for filtering on it", () => {
    const tree = eventTree({ 'user.name': 'bob' });
    const user = tree.entries.get('user');
    expect(user?.kind === 'object' && user.entries.get('name')).toEqual({ kind: 'leaf', column: 'user.name', value: 'bob' });
  });

  it('keeps a column that collides with another whole', () => {
    const tree = eventTree({ a: 1, 'a.b': 2 });
    expect(plain(tree)).toEqual({ a: 1, 'a.b': 2 });
  });

  it('summarises an event in one line of key=value', () => {
    expect(summaryLine({ '@svc.datetime': 't', user: 'bob', n: 3, x: null })).toBe('user=bob n=3 x=null');
    expect(summaryLine({ a: 'x'.repeat(500) }, 10)).toBe('a=xxxxxxxx…');
  });
});
