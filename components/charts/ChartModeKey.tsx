/**
 * One encoding per mode on every table and chart: the mode's colour
 * (app/globals.css --mode-*), its line style and its marker, and its name.
 */
import { MODE_LABELS } from "@/core/scoring/format";
import type { Mode } from "@/core/schemas/prediction";

export const MODE_STYLE: Record<Mode, { colourVar: string; dash: string | undefined; marker: "circle" | "square" | "triangle" }> = {
  oracle: { colourVar: "--mode-oracle", dash: undefined, marker: "circle" },
  seq: { colourVar: "--mode-seq", dash: "7 4", marker: "square" },
  seq_mem: { colourVar: "--mode-seq-mem", dash: "2 3", marker: "triangle" },
};

/** The mode's name after a sample of its chart line. */
export function ChartModeKey({ mode }: { mode: Mode }) {
  return <span className={`chart-mode chart-mode-${mode}`}>{MODE_LABELS[mode]}</span>;
}
