// The adoption chart of a node or a method page, as two small charts over the same quarters,
// each on its own scale: the models released in each quarter that treat it (bars), and their
// running total (a line). Drawn as inline SVG by this code (no chart library: a few
// rectangles, lines and a polyline cost less than any). Each chart has labelled ticks on both
// axes, and each quarter a tooltip (an SVG <title>: its dates and both numbers). The SVG is
// for sighted readers (aria-hidden); the same numbers are in a table beside it, visually
// hidden, so screen readers and axe get them as text. Models without a release date are in
// no quarter: the API counts them (`undatedModels`), and the page says how many are left out.
// Colours are the style sheet's, so they follow prefers-color-scheme.
import { plural, thousands } from "./ui";

/** The fields of the API's AdoptionPoint that BrowserNode and BrowserMethod ask for. */
type Point = { period: string; start: unknown; end: unknown; models: number; cumulativeModels: number };

const WIDTH = 520;
const HEIGHT = 170;
const TOP = 12;
const BOTTOM = 28; // room for the quarters' names under the axis
const LEFT = 44; // room for the scale's values
const RIGHT = 12;
/** At most this many quarters are named under the axis (every second, third, ... one). */
const X_LABELS = 5;

/** The scale's ticks from 0: steps of 1, 2 or 5 times a power of ten, about four of them,
 * the last at or above ``largest`` (so the top of the axis is a round number). */
export function ticks(largest: number): number[] {
  const target = Math.max(1, largest) / 4;
  const power = 10 ** Math.floor(Math.log10(target));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= target) ?? 10 * power);
  const top = Math.max(step, Math.ceil(Math.max(1, largest) / step) * step);
  const values: number[] = [];
  for (let value = 0; value <= top; value += step) values.push(value);
  return values;
}

/** A quarter's words for its tooltip: "2025-Q3 (2025-07-01 to 2025-09-30): 3 models
 * released, 12 in all". */
function tooltip(point: Point): string {
  return `${point.period} (${String(point.start)} to ${String(point.end)}): ${plural(point.models, "model")} released, ${thousands(point.cumulativeModels)} in all`;
}

/** One of the two charts: its axes, ticks and grid, and its marks (bars, or a line and dots) on its own scale. */
function SmallChart({
  points,
  value,
  label,
  kind,
}: {
  points: Point[];
  value: (point: Point) => number;
  label: string;
  kind: "per-period" | "running";
}) {
  const scale = ticks(Math.max(...points.map(value)));
  const top = scale[scale.length - 1];
  const slot = (WIDTH - LEFT - RIGHT) / points.length;
  const y = (v: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - v / top);
  const x = (index: number) => LEFT + slot * index;
  const every = Math.ceil(points.length / X_LABELS);
  const named = points.map((_, index) => index).filter((index) => index % every === 0);
  return (
    <figure class={`chart-panel ${kind}`}>
      <figcaption>{label}</figcaption>
      <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
        {scale.map((v) => (
          <g key={`y${v}`} class="y-tick">
            <line class="grid" x1={LEFT} y1={y(v)} x2={WIDTH - RIGHT} y2={y(v)} />
            <text class="scale" x={LEFT - 6} y={y(v) + 4} text-anchor="end">
              {thousands(v)}
            </text>
          </g>
        ))}
        <line class="axis" x1={LEFT} y1={TOP} x2={LEFT} y2={y(0)} />
        <line class="axis" x1={LEFT} y1={y(0)} x2={WIDTH - RIGHT} y2={y(0)} />
        {named.map((index) => (
          <g key={points[index].period} class="x-tick">
            <line class="axis" x1={x(index) + slot / 2} y1={y(0)} x2={x(index) + slot / 2} y2={y(0) + 4} />
            <text class="scale" x={x(index) + slot / 2} y={HEIGHT - 8} text-anchor="middle">
              {points[index].period}
            </text>
          </g>
        ))}
        {kind === "running" ? (
          <polyline
            class="total"
            points={points.map((point, index) => `${x(index) + slot / 2},${y(point.cumulativeModels)}`).join(" ")}
          />
        ) : null}
        {points.map((point, index) => (
          // Each quarter's tooltip covers its whole column, so that an empty quarter has one too.
          <g key={point.period} class="point">
            <title>{tooltip(point)}</title>
            <rect class="hit" x={x(index)} y={TOP} width={slot} height={y(0) - TOP} />
            {kind === "per-period" ? (
              <rect
                class="bar"
                x={x(index) + slot * 0.15}
                y={y(point.models)}
                width={slot * 0.7}
                height={y(0) - y(point.models)}
              />
            ) : (
              <circle class="dot" cx={x(index) + slot / 2} cy={y(point.cumulativeModels)} r={Math.min(4, slot / 3)} />
            )}
          </g>
        ))}
      </svg>
    </figure>
  );
}

/** Under the chart: the models it leaves out, having no release date. */
function Undated({ count }: { count: number }) {
  if (!count) return null;
  return (
    <p class="undated">
      {count === 1
        ? "1 model has no release date and is not plotted."
        : `${thousands(count)} models have no release date and are not plotted.`}
    </p>
  );
}

export function AdoptionChart({ points, undated, subject }: { points: Point[]; undated: number; subject: string }) {
  if (!points.length) {
    return (
      <section aria-labelledby="adoption" class="adoption">
        <h2 id="adoption">Adoption</h2>
        <p>No model with a release date treats {subject} yet.</p>
        <Undated count={undated} />
      </section>
    );
  }
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <section aria-labelledby="adoption" class="adoption">
      <h2 id="adoption">Adoption</h2>
      <p>
        Models treating {subject}, by the quarter of their release: {plural(last.cumulativeModels, "model")} from{" "}
        {first.period} to {last.period}. Point at a quarter for its numbers.
      </p>
      <div class="charts">
        <SmallChart points={points} value={(point) => point.models} label="Models released per quarter" kind="per-period" />
        <SmallChart
          points={points}
          value={(point) => point.cumulativeModels}
          label="Running total of models"
          kind="running"
        />
      </div>
      <Undated count={undated} />
      {/* In a hidden box: a table itself is never narrower than its cells. */}
      <div class="visually-hidden">
        <table>
          <caption>Adoption of {subject} by quarter</caption>
          <thead>
            <tr>
              <th scope="col">Quarter</th>
              <th scope="col">models released</th>
              <th scope="col">running total</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.period}>
                <th scope="row">{point.period}</th>
                <td>{thousands(point.models)}</td>
                <td>{thousands(point.cumulativeModels)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
