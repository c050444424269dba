/**
 * A chart's key, drawn as HTML above the plot (inside the chart's box) rather
 * than inside the SVG, so it never sits on a mark or an axis tick at any width.
 */
import type { ReactNode } from "react";

export type LegendEntry = { key: string; label: string; colour: string; marker: "circle" | "square" | "triangle" | "line" | "bar"; dash?: string };

function Sample({ e }: { e: LegendEntry }): ReactNode {
  const common = { fill: e.colour, stroke: e.colour };
  switch (e.marker) {
    case "circle":
      return <circle cx={9} cy={6} r={4.5} {...common} />;
    case "square":
      return <rect x={4.5} y={1.5} width={9} height={9} {...common} />;
    case "triangle":
      return <polygon points="9,1 14,11 4,11" {...common} />;
    case "bar":
      return <rect x={3} y={1} width={12} height={10} {...common} />;
    case "line":
      return <line x1={0} y1={6} x2={18} y2={6} stroke={e.colour} strokeWidth={2} strokeDasharray={e.dash} />;
  }
}

export function ChartLegend({ entries, lines }: { entries: LegendEntry[]; lines?: Record<string, string | undefined> }) {
  return (
    <ul className="chart-legend">
      {entries.map((e) => (
        <li key={e.key}>
          <svg width={18} height={12} aria-hidden="true">
            {lines && e.key in lines && <line x1={0} y1={6} x2={18} y2={6} stroke={e.colour} strokeWidth={2} strokeDasharray={lines[e.key]} />}
            <Sample e={e} />
          </svg>
          {e.label}
        </li>
      ))}
    </ul>
  );
}
