// The adoption chart of a node or a method page: per period (a quarter), a bar of the models
// released then that treat it and a line of the running total, drawn as inline SVG by this
// code (no chart library: a few rectangles and a polyline cost less than any). The SVG is
// decoration for sighted readers (aria-hidden); the same numbers are in a table beside it,
// visually hidden, so screen readers and axe get them as text. Colours are the style
// sheet's, so they follow prefers-color-scheme.
import { plural } from "./ui";

/** The fields of the API's AdoptionPoint that BrowserNode and BrowserMethod ask for. */
type Point = { period: string; models: number; cumulativeModels: number };

const WIDTH = 640;
const HEIGHT = 200;
const TOP = 16;
const BOTTOM = 24; // room for the first and last period's names
const LEFT = 32; // room for the scale's top value

/** Where each bar and line point goes: x by period, y scaled to the largest running total. */
function layout(points: Point[]) {
  const top = Math.max(1, ...points.map((point) => point.cumulativeModels));
  const slot = (WIDTH - LEFT) / points.length;
  const y = (value: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / top);
  return { top, slot, y, x: (index: number) => LEFT + slot * index };
}

export function AdoptionChart({ points, subject }: { points: Point[]; subject: string }) {
  if (!points.length) {
    return (
      <section aria-labelledby="adoption" class="adoption">
        <h2 id="adoption">Adoption</h2>
        <p>No model with a release date treats {subject} yet.</p>
      </section>
    );
  }
  const { top, slot, y, x } = layout(points);
  const first = points[0];
  const last = points[points.length - 1];
  const line = points.map((point, index) => `${x(index) + slot / 2},${y(point.cumulativeModels)}`).join(" ");
  return (
    <section aria-labelledby="adoption" class="adoption">
      <h2 id="adoption">Adoption</h2>
      <p>
        Models treating {subject}, by the quarter of their release (models without a release date are not
        counted): {plural(last.cumulativeModels, "model")} from{" "}
        {first.period} to {last.period}. Bars: models released in the quarter; line: the running total.
      </p>
      <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
        <line class="axis" x1={LEFT} y1={y(0)} x2={WIDTH} y2={y(0)} />
        <text class="scale" x={LEFT - 4} y={y(top) + 4} text-anchor="end">
          {top}
        </text>
        <text class="scale" x={LEFT - 4} y={y(0)} text-anchor="end">
          0
        </text>
        {points.map((point, index) => (
          <rect
            key={point.period}
            class="bar"
            x={x(index) + slot * 0.15}
            y={y(point.models)}
            width={slot * 0.7}
            height={y(0) - y(point.models)}
          />
        ))}
        <polyline class="total" points={line} />
        <text class="scale" x={LEFT} y={HEIGHT - 6}>
          {first.period}
        </text>
        {points.length > 1 ? (
          <text class="scale" x={WIDTH} y={HEIGHT - 6} text-anchor="end">
            {last.period}
          </text>
        ) : null}
      </svg>
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
                <td>{point.models}</td>
                <td>{point.cumulativeModels}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
