"use client";
/**
 * Cost per chain against per-bug %, every leaderboard row: colour and marker per
 * mode, the two compared ringed and lettered, the Pareto frontier drawn through
 * the rows on it (cheapest first).
 */
import { CartesianGrid, Legend, ResponsiveContainer, Scatter, ScatterChart, Symbols, Tooltip, XAxis, YAxis } from "recharts";
import { MODE_LABELS, formatCost, formatPercent } from "@/core/scoring/format";
import type { ScatterPoint } from "@/lib/compare/view";
import { MODES } from "@/core/schemas/prediction";
import { useCssColours } from "@/components/charts/ChartColours";
import { MODE_STYLE } from "@/components/charts/ChartModeKey";

const VARS = [...Object.values(MODE_STYLE).map((s) => s.colourVar), "--fg"];

type ShapeProps = { cx?: number; cy?: number; payload?: ScatterPoint };

export function CompareScatter({ title, points }: { title: string; points: ScatterPoint[] }) {
  const colours = useCssColours(VARS);
  if (!colours) return null;
  const modes = MODES.filter((m) => points.some((p) => p.mode === m));
  const frontier = points.filter((p) => p.frontier).sort((a, b) => a.cost - b.cost || a.perBug - b.perBug);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ScatterChart margin={{ top: 8, right: 24, bottom: 28, left: 4 }} title={title}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          type="number"
          dataKey="cost"
          name="Cost per chain"
          tickFormatter={(v: number) => formatCost(v)}
          label={{ value: "Cost per chain (USD)", position: "insideBottom", offset: -14 }}
        />
        <YAxis type="number" dataKey="perBug" name="Per-bug %" domain={[0, 100]} width={64} label={{ value: "Per-bug %", angle: -90, position: "insideLeft", offset: 4, style: { textAnchor: "middle" } }} />
        <Tooltip
          formatter={(v, name) => (name === "Cost per chain" ? formatCost(Number(v)) : `${formatPercent(Number(v))}%`)}
          labelFormatter={() => ""}
        />
        <Legend verticalAlign="top" itemSorter={null} />
        {modes.map((mode) => {
          const s = MODE_STYLE[mode];
          const colour = colours[s.colourVar];
          return (
            <Scatter
              key={mode}
              name={MODE_LABELS[mode]}
              data={points.filter((p) => p.mode === mode)}
              fill={colour}
              legendType={s.marker}
              isAnimationActive={false}
              shape={(p: ShapeProps) => (
                <g>
                  <Symbols cx={p.cx} cy={p.cy} type={s.marker} size={p.payload?.picked ? 110 : 70} fill={colour} stroke={colour} />
                  {p.payload?.picked && (
                    <>
                      <circle cx={p.cx} cy={p.cy} r={11} fill="none" stroke={colours["--fg"]} strokeWidth={2} />
                      <text x={(p.cx ?? 0) + 13} y={(p.cy ?? 0) - 9} fontWeight={700}>
                        {p.payload.picked.toUpperCase()}
                      </text>
                    </>
                  )}
                </g>
              )}
            />
          );
        })}
        {frontier.length > 0 && (
          <Scatter
            name="Pareto frontier"
            data={frontier}
            line={{ stroke: colours["--fg"], strokeDasharray: "5 3", strokeWidth: 1.5 }}
            legendType="plainline"
            fill={colours["--fg"]}
            isAnimationActive={false}
            shape={() => <g />}
          />
        )}
      </ScatterChart>
    </ResponsiveContainer>
  );
}
