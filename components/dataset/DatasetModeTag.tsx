/** A mode's name in its colour with a line-style mark (one colour per mode, never colour alone). */
import { MODE_LABELS } from "@/core/scoring/format";
import type { Mode } from "@/core/schemas/prediction";

export function DatasetModeTag({ mode }: { mode: Mode }) {
  return <span className={`mode-tag mode-tag-${mode}`}>{MODE_LABELS[mode]}</span>;
}
