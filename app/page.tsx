export default function HomePage() {
  return (
    <main>
      <h1>ChainSWE</h1>
      <p>
        Coding agents fix a chain of dependent bugs in one repository, one after another; the evaluator replays their
        patches in order in Docker and grades every bug. The leaderboard and submission portal are being built; today
        the benchmark runs from the command line: <code>npx chainswe evaluate</code>, <code>validate</code> and{" "}
        <code>report</code>.
      </p>
    </main>
  );
}
