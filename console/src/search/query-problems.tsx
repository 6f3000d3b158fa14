import type { SearchRun } from './search-run.js';

/** The query's problems in words, below the squiggles (which show where). */
export function QueryProblems(props: { run: SearchRun }) {
  const { run } = props;
  if (run.status !== 'failed') return null;
  return (
    <div class="query-problems" role="alert">
      {run.problems.length > 0 ? (
        <ul>
          {run.problems.map((p, i) => (
            <li key={i}>{p.message}</li>
          ))}
        </ul>
      ) : (
        <p>{run.error}</p>
      )}
    </div>
  );
}
