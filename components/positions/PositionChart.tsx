"use client";
/** Resolution by position, one line per mode (paper Tables 3–4 as a chart): colour, line style and marker per mode, the key above the plot. */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Symbols, Tooltip, XAxis, YAxis } from "recharts";
import { MODE_LABELS, formatPercent } from "@/core/scoring/format";
import type { PositionSeriesPoint } from "@/lib/positions/view";
import type { Mode } from "@/core/schemas/prediction";
import { useCssColours } from "@/components/charts/ChartColours";
import { MODE_STYLE } from "@/components/charts/ChartModeKey";
import { ChartLegend } from "@/components/charts/ChartLegend";

const VARS = Object.values(MODE_STYLE).map((s) => s.colourVar);

export function PositionChart({ title, modes, data }: { title: string; modes: Mode[]; data: PositionSeriesPoint[] }) {
  const colours = useCssColours(VARS);
  if (!colours) return null;
  const positions = data.map((d) => d.position);
  return (
    <>
      <ChartLegend
        entries={modes.map((m) => ({ key: m, label: MODE_LABELS[m], colour: colours[MODE_STYLE[m].colourVar]!, marker: MODE_STYLE[m].marker }))}
        lines={Object.fromEntries(modes.map((m) => [m, MODE_STYLE[m].dash]))}
      />
      <div className="chart-plot">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 28, left: 4 }} title={title}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              dataKey="position"
              type="number"
              domain={[Math.min(...positions) - 0.2, Math.max(...positions) + 0.2]}
              ticks={positions}
              tickFormatter={(p: number) => String(p)}
              label={{ value: "Position in chain", position: "insideBottom", offset: -14 }}
            />
            <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} width={64} label={{ value: "Resolved (%)", angle: -90, position: "insideLeft", offset: 4, style: { textAnchor: "middle" } }} />
            <Tooltip formatter={(v) => `${formatPercent(Number(v))}%`} labelFormatter={(p) => `Position ${String(p)}`} />
            {modes.map((mode) => {
              const s = MODE_STYLE[mode];
              const colour = colours[s.colourVar];
              return (
                <Line
                  key={mode}
                  className={`chart-line chart-line-${mode}`}
                  dataKey={mode}
                  name={MODE_LABELS[mode]}
                  stroke={colour}
                  strokeWidth={2.5}
                  strokeDasharray={s.dash}
                  legendType={s.marker}
                  isAnimationActive={false}
                  dot={(p: { cx?: number; cy?: number; index?: number }) => (
                    <Symbols key={`${mode}-${p.index}`} cx={p.cx} cy={p.cy} type={s.marker} size={70} fill={colour} stroke={colour} />
                  )}
                />
              );
            })}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}
