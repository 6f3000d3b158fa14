import { useEffect, useState } from 'preact/hooks';

type Listener = () => void;
const listeners = new Set<Listener>();

/** Goes to a console URL (path and query) without reloading; `replace` keeps the history entry. */
export function navigate(url: string, options: { replace?: boolean } = {}): void {
  if (url === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The current path and query string, re-rendering on navigation and on back/forward. */
export function useLocation(): { pathname: string; search: string } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = (): void => setTick((t) => t + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { pathname: location.pathname, search: location.search };
}

/** A same-origin link that navigates in place (a modified click still opens a new tab). */
export function onLinkClick(event: MouseEvent, url: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(url);
}
