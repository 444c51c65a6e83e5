/**
 * MarkedAncestors (the wildcard sweep's way to skip pieces no rule waits for) against a
 * brute-force walk up the parent links, for random forests and random sequences of
 * marks, unmarks, queries and clears: sparse updates (the inner nodes updated path by
 * path) and dense ones (rebuilt at once).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarkedAncestors } from '../../packages/robots-txt/src/marked-ancestors.js';

function deepestByWalk(parent: Int32Array, marked: Set<number>, v: number): number {
  for (let u = v; u !== -1; u = parent[u]!) if (marked.has(u)) return u;
  return -1;
}

/** A random forest: each node's parent is -1 or any other node, without cycles. */
const forest = fc
  .array(fc.integer({ min: -1, max: 1000 }), { minLength: 1, maxLength: 60 })
  .chain((raw) =>
    fc
      .shuffledSubarray(
        raw.map((_, i) => i),
        { minLength: raw.length, maxLength: raw.length },
      )
      .map((order) => {
        // Parents come earlier in a random order: no cycles, any shape.
        const parent = new Int32Array(raw.length).fill(-1);
        for (let k = 1; k < order.length; k++) {
          const r = raw[order[k]!]!;
          if (r >= 0) parent[order[k]!] = order[r % k]!;
        }
        return parent;
      }),
  );

const op = fc.oneof(
  fc.record({
    kind: fc.constant('toggle' as const),
    node: fc.nat(),
    times: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({ kind: fc.constant('query' as const), node: fc.nat() }),
  fc.record({ kind: fc.constant('clear' as const) }),
);

describe('MarkedAncestors', () => {
  it('finds the deepest marked ancestor as a walk up the parents does', () => {
    fc.assert(
      fc.property(forest, fc.array(op, { maxLength: 80 }), fc.nat(), (parent, ops, seed) => {
        const n = parent.length;
        const tree = new MarkedAncestors(parent);
        const marked = new Set<number>();
        let next = seed;
        for (const o of ops) {
          if (o.kind === 'clear') {
            tree.clear();
            marked.clear();
          } else if (o.kind === 'toggle') {
            // A burst of toggles from one place: sometimes few, sometimes many leaves change.
            for (let t = 0; t < o.times; t++) {
              const v = (o.node + t * 7 + next++) % n;
              if (marked.has(v)) {
                tree.unmark(v);
                marked.delete(v);
              } else {
                tree.mark(v);
                marked.add(v);
              }
            }
          }
          for (let v = 0; v < n; v += o.kind === 'query' ? 1 : 5) {
            expect(tree.isMarked(v)).toBe(marked.has(v));
            expect(tree.deepest(v), `node ${v}`).toBe(deepestByWalk(parent, marked, v));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('updates path by path up to the leaves a rebuild would touch, and rebuilds past that', () => {
    // 60 nodes: 128 leaves in 7 levels, so up to 20 changed leaves (10 marks) are brought up
    // to date path by path, and more by a rebuild. Every count around that, before the
    // first query (marks written then) and between queries (written as they come).
    const n = 60;
    const parent = Int32Array.from({ length: n }, (_, v) => (v % 7 === 0 ? -1 : v - 1 - (v % 3)));
    const tree = new MarkedAncestors(parent);
    const check = (marked: Set<number>): void => {
      for (let v = 0; v < n; v++)
        expect(tree.deepest(v), `node ${v}`).toBe(deepestByWalk(parent, marked, v));
    };
    for (let count = 0; count <= 24; count++) {
      const marked = new Set<number>();
      for (let k = 0; k < count; k++) {
        const v = (k * 37 + count) % n;
        if (!marked.has(v)) {
          tree.mark(v);
          marked.add(v);
        }
      }
      check(marked);
      for (let k = 0; k < count; k++) {
        const v = (k * 11 + 5) % n;
        if (marked.has(v)) {
          tree.unmark(v);
          marked.delete(v);
        } else {
          tree.mark(v);
          marked.add(v);
        }
      }
      check(marked);
      tree.clear();
      check(new Set());
    }
  });

  it('a forest of roots only', () => {
    const tree = new MarkedAncestors(new Int32Array(5).fill(-1));
    tree.mark(3);
    expect([0, 1, 2, 3, 4].map((v) => tree.deepest(v))).toEqual([-1, -1, -1, 3, -1]);
    tree.clear();
    expect(tree.deepest(3)).toBe(-1);
  });

  it('a chain of 2,000 nodes, marked at every third node', () => {
    const n = 2000;
    const parent = Int32Array.from({ length: n }, (_, v) => v - 1);
    const tree = new MarkedAncestors(parent);
    for (let v = 0; v < n; v += 3) tree.mark(v);
    for (const v of [0, 1, 2, 3, 1999, 1000]) expect(tree.deepest(v)).toBe(v - (v % 3));
    tree.clear();
    expect(tree.deepest(1999)).toBe(-1);
    tree.mark(5);
    expect(tree.deepest(1999)).toBe(5);
    expect(tree.deepest(4)).toBe(-1);
  });
});
