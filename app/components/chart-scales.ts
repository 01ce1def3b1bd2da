// The few parts of d3-scale and d3-shape the charts use, with d3's own arithmetic (a linear
// scale with nice() and ticks(), a band scale, a straight line's path): the charts are drawn
// again in the browser when a page hydrates, and d3-scale brings d3-interpolate, d3-format and
// d3-time with it (16 KiB gzipped on the dashboard). tests/unit/chart-scales.test.ts checks
// every function against d3 itself.

const E10 = Math.sqrt(50);
const E5 = Math.sqrt(10);
const E2 = Math.sqrt(2);

function tickSpec(start: number, stop: number, count: number): [number, number, number] {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log10(step));
  const error = step / Math.pow(10, power);
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  let i1: number, i2: number, inc: number;
  if (power < 0) {
    inc = Math.pow(10, -power) / factor;
    i1 = Math.round(start * inc);
    i2 = Math.round(stop * inc);
    if (i1 / inc < start) ++i1;
    if (i2 / inc > stop) --i2;
    inc = -inc;
  } else {
    inc = Math.pow(10, power) * factor;
    i1 = Math.round(start / inc);
    i2 = Math.round(stop / inc);
    if (i1 * inc < start) ++i1;
    if (i2 * inc > stop) --i2;
  }
  if (i2 < i1 && 0.5 <= count && count < 2) return tickSpec(start, stop, count * 2);
  return [i1, i2, inc];
}

/** d3-array's ticks(start, stop, count) for start <= stop. */
export function ticks(start: number, stop: number, count: number): number[] {
  if (!(count > 0)) return [];
  if (start === stop) return [start];
  const [i1, i2, inc] = tickSpec(start, stop, count);
  if (!(i2 >= i1)) return [];
  const n = i2 - i1 + 1;
  const out = new Array<number>(n);
  for (let i = 0; i < n; ++i) out[i] = inc < 0 ? (i1 + i) / -inc : (i1 + i) * inc;
  return out;
}

const tickIncrement = (start: number, stop: number, count: number) => tickSpec(start, stop, count)[2];

export type LinearScale = ((value: number) => number) & {
  ticks: (count?: number) => number[];
  domain: [number, number];
};

/** d3's scaleLinear().domain([lo, hi]) (lo <= hi), made nice() when asked, onto range. */
export function scaleLinear(
  domain: [number, number],
  range: [number, number],
  opts: { nice?: boolean } = {},
): LinearScale {
  let [start, stop] = domain;
  if (opts.nice) {
    let prestep: number | undefined;
    for (let maxIter = 10; maxIter-- > 0;) {
      const step = tickIncrement(start, stop, 10);
      if (step === prestep) break;
      else if (step > 0) {
        start = Math.floor(start / step) * step;
        stop = Math.ceil(stop / step) * step;
      } else if (step < 0) {
        start = Math.ceil(start * step) / step;
        stop = Math.floor(stop * step) / step;
      } else break;
      prestep = step;
    }
  }
  const [r0, r1] = range;
  const span = stop - start;
  const scale = ((value: number) => {
    const t = span ? (value - start) / span : 0.5;
    return r0 * (1 - t) + r1 * t;
  }) as LinearScale;
  scale.ticks = (count = 10) => ticks(start, stop, count);
  scale.domain = [start, stop];
  return scale;
}

export type BandScale = ((value: string) => number | undefined) & { bandwidth: () => number };

/** d3's scaleBand() over domain onto range (r0 <= r1), with its inner and outer padding, centred. */
export function scaleBand(
  domain: readonly string[],
  range: [number, number],
  padding: { inner?: number; outer?: number } = {},
): BandScale {
  const index = new Map<string, number>();
  for (const d of domain) if (!index.has(d)) index.set(d, index.size);
  const n = index.size;
  const inner = Math.min(1, padding.inner ?? 0);
  const outer = padding.outer ?? 0;
  const [r0, r1] = range;
  const step = (r1 - r0) / Math.max(1, n - inner + outer * 2);
  const start = r0 + (r1 - r0 - step * (n - inner)) * 0.5;
  const bandwidth = step * (1 - inner);
  const scale = ((value: string) => {
    const i = index.get(value);
    return i === undefined ? undefined : start + step * i;
  }) as BandScale;
  scale.bandwidth = () => bandwidth;
  return scale;
}

/** d3-shape's line() path through the points (straight segments, 3 decimals; one point closes). */
export function linePath(points: Array<[number, number]>): string {
  const r = (v: number) => Math.round(v * 1000) / 1000;
  if (!points.length) return "";
  return `M${points.map(([x, y]) => `${r(x)},${r(y)}`).join("L")}${points.length === 1 ? "Z" : ""}`;
}
