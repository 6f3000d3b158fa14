import { messageOf } from '../api/api-error.js';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A page loaded on first visit: the search page ships in the first bundle, the others (rules with
 * their YAML editor, alerts, sinks, indexes, keys) are fetched when opened.
 */
export function LazyPage<P extends object>(props: { load: () => Promise<ComponentType<P>>; props: P }) {
  const [Page, setPage] = useState<ComponentType<P> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    props.load().then(
      (component) => live && setPage(() => component),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [props.load]);
  if (error)
    return (
      <p class="error" role="alert">
        This page could not be loaded: {error}
      </p>
    );
  if (!Page)
    return (
      <p class="loading" aria-live="polite">
        Loading…
      </p>
    );
  return <Page {...props.props} />;
}
