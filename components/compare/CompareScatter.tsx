"use client";
/**
 * Cost per chain against per-bug %, every leaderboard row: colour and marker per
 * mode, the two compared ringed and lettered, the Pareto frontier drawn through
 * the rows on it (cheapest first). Each point is tagged with its system where
 * there is room (lib/compare/view.ts placeMarks), points drawn on top of each
 * other are spread sideways so each can be hovered or tapped, and the tooltip
 * names the system, its mode and both figures. The key sits above the plot.
 */
import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Symbols, Tooltip, XAxis, YAxis } from "recharts";
import { MODE_LABELS, formatCost, formatPercent } from "@/core/scoring/format";
import type { ScatterPoint } from "@/lib/compare/view";
import { MODES } from "@/core/schemas/prediction";
import { useCssColours } from "@/components/charts/ChartColours";
import { ChartLegend, type LegendEntry } from "@/components/charts/ChartLegend";
import { MODE_STYLE } from "@/components/charts/ChartModeKey";

const VARS = [...Object.values(MODE_STYLE).map((s) => s.colourVar), "--fg"];
/** how far apart, in pixels, the markers of one pile are drawn */
const DODGE_PX = 9;

type ShapeProps = { cx?: number; cy?: number; payload?: ScatterPoint };

/** What a hover or a tap on a point shows: the system and mode, then its two figures. */
function PointTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) {
  const p = payload?.[0]?.payload as ScatterPoint | undefined;
  if (!active || !p?.submissionId) return null;
  return (
    <div className="chart-tooltip" data-testid="scatter-tooltip">
      <strong>{p.system}</strong> · {MODE_LABELS[p.mode]}
      {p.picked && <> (compared, {p.picked.toUpperCase()})</>}
      <br />
      Cost per chain: {formatCost(p.cost)}
      <br />
      Per-bug %: {formatPercent(p.perBug)}%{p.frontier && <> · on the Pareto frontier</>}
    </div>
  );
}

export function CompareScatter({ title, points }: { title: string; points: ScatterPoint[] }) {
  const colours = useCssColours(VARS);
  if (!colours) return null;
  const modes = MODES.filter((m) => points.some((p) => p.mode === m));
  const frontier = points.filter((p) => p.frontier).sort((a, b) => a.cost - b.cost || a.perBug - b.perBug);
  const legend: LegendEntry[] = [
    ...modes.map((m) => ({ key: m, label: MODE_LABELS[m], colour: colours[MODE_STYLE[m].colourVar]!, marker: MODE_STYLE[m].marker })),
    ...(frontier.length > 0 ? [{ key: "frontier", label: "Pareto frontier", colour: colours["--fg"]!, marker: "line" as const, dash: "5 3" }] : []),
  ];
  return (
    <>
      <ChartLegend entries={legend} />
      <div className="chart-plot">
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 8, right: 24, bottom: 28, left: 4 }} title={title}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="cost"
              name="Cost per chain"
              padding={{ left: 24, right: 24 }}
              tickFormatter={(v: number) => formatCost(v)}
              label={{ value: "Cost per chain (USD)", position: "insideBottom", offset: -14 }}
            />
            <YAxis
              type="number"
              dataKey="perBug"
              name="Per-bug %"
              domain={[0, 100]}
              ticks={[0, 25, 50, 75, 100]}
              padding={{ top: 14, bottom: 8 }}
              width={64}
              label={{ value: "Per-bug %", angle: -90, position: "insideLeft", offset: 4, style: { textAnchor: "middle" } }}
            />
            <Tooltip content={PointTooltip} cursor={false} />
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
                  shape={(p: ShapeProps) => {
                    const x = (p.cx ?? 0) + (p.payload?.dodge ?? 0) * DODGE_PX;
                    const y = p.cy ?? 0;
                    return (
                      <g data-testid="scatter-point" data-system={p.payload?.system}>
                        <Symbols cx={x} cy={y} type={s.marker} size={p.payload?.picked ? 110 : 70} fill={colour} stroke={colour} />
                        {p.payload?.picked && (
                          <>
                            <circle cx={x} cy={y} r={11} fill="none" stroke={colours["--fg"]} strokeWidth={2} />
                            <text x={x + 13} y={y - 9} fontWeight={700}>
                              {p.payload.picked.toUpperCase()}
                            </text>
                          </>
                        )}
                        {p.payload?.tag && !p.payload.picked && (
                          <text className="chart-point-tag" x={p.payload.tagLeft ? x - 8 : x + 8} y={y - 8} fontSize={11} textAnchor={p.payload.tagLeft ? "end" : "start"}>
                            {p.payload.tag}
                          </text>
                        )}
                      </g>
                    );
                  }}
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
                tooltipType="none"
                shape={() => <g />}
              />
            )}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}
