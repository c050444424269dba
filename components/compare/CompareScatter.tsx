"use client";
/**
 * Cost per chain against per-bug %, every leaderboard row: colour and marker per
 * mode, the two compared ringed and lettered, the Pareto frontier drawn through
 * the rows on it (cheapest first). Each point is tagged with its system where
 * there is room (lib/compare/view.ts placeMarks), points whose markers would
 * overlap are spread into a row so each can be hovered or tapped, and the tooltip
 * names the system, its mode and both figures. The cost axis has a round top
 * computed here, so a point's place in pixels is known before it is drawn.
 * The key sits above the plot.
 */
import { useMemo, useState } from "react";
import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Symbols, Tooltip, XAxis, YAxis } from "recharts";
import { MODE_LABELS, formatCost, formatPercent } from "@/core/scoring/format";
import { placeMarks, type PointMark, type ScatterPoint } from "@/lib/compare/view";
import { MODES } from "@/core/schemas/prediction";
import { useCssColours } from "@/components/charts/ChartColours";
import { ChartLegend, type LegendEntry } from "@/components/charts/ChartLegend";
import { MODE_STYLE } from "@/components/charts/ChartModeKey";

const VARS = [...Object.values(MODE_STYLE).map((s) => s.colourVar), "--fg"];
/** the plot's frame, in pixels: the chart's margins, the y axis, the x axis's padding and height */
const MARGIN = { top: 8, right: 24, bottom: 28, left: 4 };
const Y_AXIS = 64;
const X_PAD = 24;
const Y_PAD = { top: 14, bottom: 8 };
const X_AXIS = 30;

/** A round top for the cost axis, four or five ticks from 0, so where a point is drawn is known before it is. */
function costAxis(max: number): { top: number; ticks: number[] } {
  const rough = (max || 1) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const top = Math.ceil(max / step) * step || step;
  return { top, ticks: Array.from({ length: Math.round(top / step) + 1 }, (_, i) => Number((i * step).toFixed(6))) };
}

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
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const axis = costAxis(Math.max(...points.map((p) => p.cost), 0));
  const marks = useMemo(() => {
    if (!size) return new Map<string, PointMark>();
    const width = size.width - MARGIN.left - MARGIN.right - Y_AXIS - 2 * X_PAD;
    const height = size.height - MARGIN.top - MARGIN.bottom - X_AXIS - Y_PAD.top - Y_PAD.bottom;
    return placeMarks(points, { x: width / axis.top, y: height / 100 }, width);
  }, [points, size, axis.top]);
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
        <ResponsiveContainer width="100%" height="100%" onResize={(width, height) => setSize({ width, height })}>
          <ScatterChart margin={MARGIN} title={title}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="cost"
              name="Cost per chain"
              domain={[0, axis.top]}
              ticks={axis.ticks}
              height={X_AXIS}
              padding={{ left: X_PAD, right: X_PAD }}
              tickFormatter={(v: number) => formatCost(v)}
              label={{ value: "Cost per chain (USD)", position: "insideBottom", offset: -14 }}
            />
            <YAxis
              type="number"
              dataKey="perBug"
              name="Per-bug %"
              domain={[0, 100]}
              ticks={[0, 25, 50, 75, 100]}
              padding={Y_PAD}
              width={Y_AXIS}
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
                    const mark = p.payload ? marks.get(p.payload.submissionId) : undefined;
                    const x = (p.cx ?? 0) + (mark?.dodge ?? 0);
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
                        {mark?.tag && !p.payload?.picked && (
                          <text className="chart-point-tag" x={mark.tagLeft ? x - 8 : x + 8} y={y - 8} fontSize={11} textAnchor={mark.tagLeft ? "end" : "start"}>
                            {mark.tag}
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
