import assert from "node:assert/strict";
import { test } from "node:test";
import { scaleBand as d3Band, scaleLinear as d3Linear } from "d3-scale";
import { line } from "d3-shape";
import { linePath, scaleBand, scaleLinear } from "../../app/components/chart-scales";

// The charts' scales without d3 in the browser (app/components/chart-scales.ts) draw what d3
// drew: the same nice domain, ticks, positions and band widths, the same line path.

function* maxima() {
  for (const m of [0.001, 0.2, 0.37, 1, 2, 3, 7, 9.99, 10, 11, 42, 99, 100, 101, 149.5, 999, 1234.56, 50_000, 73_215.4])
    yield m;
  let seed = 7;
  for (let i = 0; i < 300; i++) {
    seed = (seed * 48271) % 2147483647;
    yield (seed / 2147483647) * 10 ** ((seed % 9) - 2);
  }
}

test("a nice linear scale: its domain, ticks and positions are d3's", () => {
  for (const max of maxima()) {
    for (const range of [
      [224, 16],
      [0, 530],
    ] as [number, number][]) {
      const ours = scaleLinear([0, max], range, { nice: true });
      const theirs = d3Linear().domain([0, max]).nice().range(range);
      assert.deepEqual(ours.domain, theirs.domain(), `domain of [0, ${max}]`);
      for (const count of [1, 3, 5, 10])
        assert.deepEqual(ours.ticks(count), theirs.ticks(count), `ticks(${count}) of ${max}`);
      for (const v of [0, max / 3, max, max * 1.2]) assert.equal(ours(v), theirs(v), `${v} in [0, ${max}]`);
    }
    const plain = scaleLinear([0, max], [0, 420]);
    const d3Plain = d3Linear().domain([0, max]).range([0, 420]);
    for (const v of [0, max / 7, max]) assert.equal(plain(v), d3Plain(v));
  }
});

test("a band scale: its positions and bandwidth are d3's", () => {
  for (const n of [0, 1, 2, 5, 12, 53]) {
    const domain = Array.from({ length: n }, (_, i) => `c${i}`);
    for (const [inner, outer] of [
      [0.25, 0.1],
      [0.5, 0.5],
      [0.08, 0.08],
    ]) {
      const ours = scaleBand(domain, [72, 704], { inner, outer });
      const theirs = d3Band().domain(domain).range([72, 704]).paddingInner(inner!).paddingOuter(outer!);
      assert.equal(ours.bandwidth(), theirs.bandwidth());
      for (const c of [...domain, "missing"]) assert.equal(ours(c), theirs(c), `${c} of ${n}`);
    }
  }
  // padding(p) is paddingInner(p) and paddingOuter(p).
  const theirs = d3Band().domain(["a", "b", "c"]).range([0, 100]).padding(0.08);
  const ours = scaleBand(["a", "b", "c"], [0, 100], { inner: 0.08, outer: 0.08 });
  assert.equal(ours.bandwidth(), theirs.bandwidth());
  assert.equal(ours("b"), theirs("b"));
});

test("a line's path is d3-shape's", () => {
  for (const points of [
    [],
    [[1, 2]],
    [
      [72.123456, 224],
      [130.5, 16.0004],
      [188.33333333, 99.9999],
    ],
  ] as Array<Array<[number, number]>>) {
    assert.equal(linePath(points), line()(points) ?? "");
  }
});
