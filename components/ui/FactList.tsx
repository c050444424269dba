import type { ReactNode } from "react";

/** A term and its value, in the order given. */
export type Fact = [term: string, value: ReactNode];

/** Facts as a definition list (a submission's, a chain's, an outcome's), one term per row. */
export function FactList({ facts, className = "facts" }: { facts: Fact[]; className?: string }) {
  return (
    <dl className={className}>
      {facts.map(([term, value], i) => (
        <div key={`${i}-${term}`}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
