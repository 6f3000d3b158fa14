/** The console's pages, read from the URL's path. */
export type Route =
  | { readonly page: 'search' }
  | { readonly page: 'rules' }
  | { readonly page: 'rule'; readonly id: string }
  | { readonly page: 'alerts' }
  | { readonly page: 'alert'; readonly id: string }
  | { readonly page: 'sinks' }
  | { readonly page: 'indexes' }
  | { readonly page: 'keys' }
  | { readonly page: 'not-found'; readonly path: string };

/** `/` and `/search` are the search page; `/rules/ID` one rule; anything else unknown. */
export function routeOf(pathname: string): Route {
  const parts = pathname
    .split('/')
    .filter((p) => p.length > 0)
    .map(decodeURIComponent);
  const [first, second, ...rest] = parts;
  if (rest.length > 0) return { page: 'not-found', path: pathname };
  if (first === undefined || (first === 'search' && second === undefined)) return { page: 'search' };
  if (first === 'rules') return second === undefined ? { page: 'rules' } : { page: 'rule', id: second };
  if (first === 'alerts') return second === undefined ? { page: 'alerts' } : { page: 'alert', id: second };
  if (second === undefined && (first === 'sinks' || first === 'indexes' || first === 'keys')) return { page: first };
  return { page: 'not-found', path: pathname };
}

/** The path of a page, for links. */
export function pathOf(route: Route): string {
  switch (route.page) {
    case 'rule':
      return `/rules/${encodeURIComponent(route.id)}`;
    case 'alert':
      return `/alerts/${encodeURIComponent(route.id)}`;
    case 'not-found':
      return route.path;
    default:
      return `/${route.page}`;
  }
}
