/**
 * Which of the leaderboard's other columns are shown: one link per column that
 * shows or hides it, so the choice is held in the URL (`cols`), works before
 * JavaScript and is undone by Back; and what every column holds, in words a
 * touch reader can open (the headers' titles need a pointer that hovers).
 */
import Link from "next/link";
import { ALWAYS_SHOWN, CHOOSABLE_COLUMNS, COLUMN_HELP, COLUMN_NAMES, shownColumns, toggledColumns } from "@/lib/leaderboard/columns";
import { leaderboardHref, type LeaderboardView } from "@/lib/leaderboard/url";

const ALWAYS_NAMES: Record<(typeof ALWAYS_SHOWN)[number], string> = { rank: "Rank", model: "Model", mode: "Mode", per_bug: "Per-bug %", chain: "Chain %" };

export function LeaderboardColumns({ query }: { query: LeaderboardView }) {
  const shown = shownColumns(query.cols);
  return (
    <div className="lb-columns">
      <details>
        <summary>Columns</summary>
        <ul>
          {CHOOSABLE_COLUMNS.map((c) => {
            const on = shown.includes(c);
            return (
              <li key={c}>
                <Link href={leaderboardHref(query, { cols: toggledColumns(query.cols, c) })} scroll={false} className={on ? "lb-col on" : "lb-col"}>
                  <span aria-hidden="true">{on ? "☑" : "☐"}</span> <span className="visually-hidden">{on ? "Hide" : "Show"} </span>
                  {COLUMN_NAMES[c]}
                </Link>
              </li>
            );
          })}
        </ul>
      </details>
      <details>
        <summary>What the columns mean</summary>
        <dl>
          {[...ALWAYS_SHOWN.map((c) => [ALWAYS_NAMES[c], COLUMN_HELP[c]] as const), ...CHOOSABLE_COLUMNS.map((c) => [COLUMN_NAMES[c], COLUMN_HELP[c]] as const)].map(([name, help]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{help}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}
