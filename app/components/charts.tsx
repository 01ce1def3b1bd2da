import { useId } from "react";
import { linePath, scaleBand, scaleLinear } from "./chart-scales";

// Charts drawn on the server as SVG: readable with JavaScript off, with a
// title and a description for screen readers, and the same figures in a table beside each one
// (the page's job). Scales and paths are d3's arithmetic (chart-scales.ts, without d3's weight in
// the browser); this file only lays them out. Series colours are the 600 shades of a common palette: each has at least 3:1 contrast
// on white (WCAG 1.4.11 for graphics).

export const SERIES_COLOURS = ["#2563eb", "#059669", "#c2410c", "#7c3aed", "#db2777", "#0e7490", "#4b5563", "#a16207"];

export type Series = { name: string; values: number[] };
/**
 * width: the drawing's own units (text is 12 of them): 720 for a page-wide chart, ~360 for a small one.
 * id: the stem of the ids of the title and description (by default one React makes from the chart's
 * place in the page; a chart rendered on its own, whose markup is kept, is given one).
 */
type Common = {
  title: string;
  description: string;
  format: (n: number) => string;
  height?: number;
  width?: number;
  id?: string;
};

const WIDTH = 720;
const MARGIN = { top: 16, right: 16, bottom: 36, left: 72 };

function Frame({
  title,
  description,
  height,
  width = WIDTH,
  children,
  legend,
  id: given,
}: {
  title: string;
  description: string;
  height: number;
  width?: number;
  children: React.ReactNode;
  legend?: string[];
  id?: string;
}) {
  const made = useId();
  const id = given ?? made;
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        {children}
      </svg>
      {legend && legend.length > 1 ? (
        <ul className="chart-legend" aria-hidden="true">
          {legend.map((name, i) => (
            <li key={name}>
              <span className="swatch" style={{ background: SERIES_COLOURS[i % SERIES_COLOURS.length] }} />
              {name}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}

function YAxis({
  ticks,
  y,
  format,
  width,
}: {
  ticks: number[];
  y: (n: number) => number;
  format: (n: number) => string;
  width: number;
}) {
  // Ticks that read alike (an all-zero month: 0, 0.2 ... 1 cent, each "$0") are drawn once.
  const shown = ticks.filter((t, i) => i === 0 || format(t) !== format(ticks[i - 1]));
  return (
    <g className="axis axis-y">
      {shown.map((t) => (
        <g key={t} transform={`translate(0,${y(t)})`}>
          <line x1={MARGIN.left} x2={width - MARGIN.right} className="gridline" />
          <text x={MARGIN.left - 8} dy="0.32em" textAnchor="end">
            {format(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Every nth label, so a year of weeks stays readable. */
const labelEvery = (count: number) => Math.max(1, Math.ceil(count / 12));

function XLabels({
  categories,
  x,
  labels,
  height,
}: {
  categories: string[];
  x: (c: string) => number;
  labels: (c: string) => string;
  height: number;
}) {
  const every = labelEvery(categories.length);
  return (
    <g className="axis axis-x">
      {categories.map((c, i) =>
        i % every === 0 ? (
          <text key={c} x={x(c)} y={height - MARGIN.bottom + 18} textAnchor="middle">
            {labels(c)}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** Vertical bars, one group per category, one bar per series. */
export function BarChart({
  title,
  description,
  categories,
  series,
  format,
  labels = (c) => c,
  height = 260,
  width = WIDTH,
  id,
}: Common & { categories: string[]; series: Series[]; labels?: (c: string) => string }) {
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const y = scaleLinear([0, max || 1], [height - MARGIN.bottom, MARGIN.top], { nice: true });
  const x = scaleBand(categories, [MARGIN.left, width - MARGIN.right], { inner: 0.25, outer: 0.1 });
  const inner = scaleBand(
    series.map((s) => s.name),
    [0, x.bandwidth()],
    { inner: 0.08, outer: 0.08 },
  );
  return (
    <Frame
      title={title}
      description={description}
      height={height}
      width={width}
      legend={series.map((s) => s.name)}
      id={id}
    >
      <YAxis ticks={y.ticks(height < 200 ? 3 : 5)} y={y} format={format} width={width} />
      {series.map((s, si) => (
        <g key={s.name} fill={SERIES_COLOURS[si % SERIES_COLOURS.length]} className="bars" data-series={s.name}>
          {categories.map((c, ci) => {
            const v = s.values[ci] ?? 0;
            return (
              <rect
                key={c}
                x={(x(c) ?? 0) + (inner(s.name) ?? 0)}
                y={y(v)}
                width={inner.bandwidth()}
                height={Math.max(0, y(0) - y(v))}
                data-value={v}
              />
            );
          })}
        </g>
      ))}
      <XLabels categories={categories} x={(c) => (x(c) ?? 0) + x.bandwidth() / 2} labels={labels} height={height} />
    </Frame>
  );
}

/** One line per series over the categories, with a point per value. */
export function LineChart({
  title,
  description,
  categories,
  series,
  format,
  labels = (c) => c,
  height = 260,
  id,
}: Common & { categories: string[]; series: Series[]; labels?: (c: string) => string }) {
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const y = scaleLinear([0, max || 1], [height - MARGIN.bottom, MARGIN.top], { nice: true });
  const x = scaleBand(categories, [MARGIN.left, WIDTH - MARGIN.right], { inner: 0.5, outer: 0.5 });
  const at = (c: string) => (x(c) ?? 0) + x.bandwidth() / 2;
  return (
    <Frame title={title} description={description} height={height} legend={series.map((s) => s.name)} id={id}>
      <YAxis ticks={y.ticks(Math.min(5, Math.max(1, max)))} y={y} format={format} width={WIDTH} />
      {series.map((s, si) => {
        const colour = SERIES_COLOURS[si % SERIES_COLOURS.length];
        const path = linePath(s.values.map((v, i) => [at(categories[i]!), y(v)]));
        return (
          <g key={s.name} className="line-series" data-series={s.name}>
            <path d={path} fill="none" stroke={colour} strokeWidth={2} />
            {s.values.map((v, i) => (
              <circle key={categories[i]} cx={at(categories[i])} cy={y(v)} r={2.5} fill={colour} data-value={v} />
            ))}
          </g>
        );
      })}
      <XLabels categories={categories} x={at} labels={labels} height={height} />
    </Frame>
  );
}

/** Horizontal bars, one per row, with the value written at the end of the bar. */
export function HBarChart({
  title,
  description,
  rows,
  format,
  width = WIDTH,
  id,
}: Common & { rows: Array<{ label: string; value: number }> }) {
  const rowHeight = 28;
  const small = width < 500;
  const left = small ? 110 : 190;
  const height = Math.max(1, rows.length) * rowHeight + 24;
  const x = scaleLinear([0, Math.max(1, ...rows.map((r) => r.value))], [0, width - left - (small ? 60 : 110)]);
  return (
    <Frame title={title} description={description} height={height} width={width} id={id}>
      {rows.map((r, i) => (
        <g key={r.label} transform={`translate(0,${12 + i * rowHeight})`} className="hbar">
          <text x={left - 10} y={rowHeight / 2} dy="0.1em" textAnchor="end">
            {r.label.length > 26 ? `${r.label.slice(0, 25)}…` : r.label}
          </text>
          <rect
            x={left}
            y={4}
            width={Math.max(r.value > 0 ? 2 : 0, x(r.value))}
            height={rowHeight - 10}
            fill={SERIES_COLOURS[0]}
            data-value={r.value}
          />
          <text x={left + x(r.value) + 8} y={rowHeight / 2} dy="0.1em">
            {format(r.value)}
          </text>
        </g>
      ))}
    </Frame>
  );
}
