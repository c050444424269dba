"use client";
/**
 * Stacked bars by chain position, in the manner of the paper's Figure 4: one
 * stack per position, one segment per category, each segment labelled with its
 * count in black or white, whichever reads on its fill (so the key's colours
 * are never the only cue), and the key above the plot, clear of the bars.
 */
import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useCssColours } from "@/components/charts/ChartColours";
import { ChartLegend } from "@/components/charts/ChartLegend";
import { textOn } from "@/lib/charts/contrast";

export type StackSeries = { key: string; label: string; colourVar: string };

type LabelProps = { x?: unknown; y?: unknown; width?: unknown; height?: unknown; value?: unknown };

/** A segment's count in its middle, left out where the segment is too thin to hold it. */
function segmentLabel(fill: string) {
  return function SegmentLabel(p: LabelProps) {
    const [x, y, w, h] = [p.x, p.y, p.width, p.height].map(Number) as [number, number, number, number];
    if (!(Number(p.value) > 0) || !(h >= 14)) return null;
    return (
      // a style, not the fill attribute: the stylesheet's `.chart-box text` rule outranks an attribute; a tap on the count reaches its bar
      <text x={x + w / 2} y={y + h / 2} textAnchor="middle" dominantBaseline="central" fontSize={12} style={{ fill, pointerEvents: "none" }}>
        {String(p.value)}
      </text>
    );
  };
}

type Props = { title: string; data: Record<string, number>[]; series: StackSeries[]; yLabel: string };

export function ChartStackedBars({ title, data, series, yLabel }: Props) {
  const colours = useCssColours(series.map((s) => s.colourVar));
  if (!colours) return null;
  return (
    <>
      <ChartLegend entries={series.map((s) => ({ key: s.key, label: s.label, colour: colours[s.colourVar]!, marker: "bar" }))} />
      <div className="chart-plot">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 16, bottom: 28, left: 4 }} title={title}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="position" tickFormatter={(p: number) => `Pos. ${p}`} label={{ value: "Position in chain", position: "insideBottom", offset: -14 }} />
            <YAxis allowDecimals={false} width={64} label={{ value: yLabel, angle: -90, position: "insideLeft", offset: 4, style: { textAnchor: "middle" } }} />
            <Tooltip labelFormatter={(p) => `Position ${String(p)}`} />
            {series.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} stackId="stack" fill={colours[s.colourVar]} stroke="var(--bg)" isAnimationActive={false}>
                <LabelList dataKey={s.key} content={segmentLabel(textOn(colours[s.colourVar]!))} />
              </Bar>
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}
