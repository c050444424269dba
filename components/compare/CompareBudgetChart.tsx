"use client";
/**
 * A budget curve chart (SPEC §4): per-bug % or chain % against a cap on one
 * kind of per-bug effort, a step line per visible row with a curve, in its
 * mode's colour and line style, the compared rows drawn thicker and lettered.
 * The key above the plot names every line; a hover or a tap names each line's
 * value at that cap.
 */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { EffortKind } from "@/core/scoring";
import { formatPercent } from "@/core/scoring/format";
import { budgetChartRows, formatCap, seriesName, EFFORT_LABELS, type BudgetMetric, type BudgetSeries } from "@/lib/compare/budget";
import { useCssColours } from "@/components/charts/ChartColours";
import { ChartLegend } from "@/components/charts/ChartLegend";
import { MODE_STYLE } from "@/components/charts/ChartModeKey";

const VARS = Object.values(MODE_STYLE).map((s) => s.colourVar);

type Props = { title: string; metric: BudgetMetric; kind: EffortKind; series: BudgetSeries[] };

export function CompareBudgetChart({ title, metric, kind, series }: Props) {
  const colours = useCssColours(VARS);
  if (!colours) return null;
  const drawn = series.filter((s) => s.curve.points.length > 0 && (metric === "per_bug" || s.curve.chains > 0));
  const data = budgetChartRows(drawn, metric);
  const caps = data.map((d) => d.cap as number);
  return (
    <>
      <ChartLegend
        entries={drawn.map((s) => ({ key: s.submissionId, label: seriesName(s), colour: colours[MODE_STYLE[s.mode].colourVar]!, marker: "line" as const, dash: MODE_STYLE[s.mode].dash }))}
      />
      <div className="chart-plot">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 28, left: 4 }} title={title}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              dataKey="cap"
              type="number"
              domain={[0, Math.max(0, ...caps)]}
              tickFormatter={(v: number) => formatCap(kind, v)}
              label={{ value: `Cap on ${EFFORT_LABELS[kind]} per bug`, position: "insideBottom", offset: -14 }}
            />
            <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} width={64} label={{ value: metric === "per_bug" ? "Per-bug %" : "Chain %", angle: -90, position: "insideLeft", offset: 4, style: { textAnchor: "middle" } }} />
            <Tooltip
              formatter={(v) => `${formatPercent(Number(v))}%`}
              labelFormatter={(cap) => `Cap: ${formatCap(kind, Number(cap))} per bug`}
              itemSorter={(item) => -Number(item.value)}
            />
            {drawn.map((s) => {
              const style = MODE_STYLE[s.mode];
              return (
                <Line
                  key={s.submissionId}
                  className={`chart-line chart-line-${s.mode}`}
                  type="stepAfter"
                  dataKey={s.submissionId}
                  name={seriesName(s)}
                  stroke={colours[style.colourVar]}
                  strokeWidth={s.picked ? 3.5 : 1.5}
                  strokeDasharray={style.dash}
                  dot={false}
                  isAnimationActive={false}
                />
              );
            })}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}
