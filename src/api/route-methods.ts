/**
 * The methods each route path answers, collected as routes are added, so a request whose path
 * exists under other methods is answered 405 with `Allow` (RFC 9110 15.5.6) instead of 404.
 * Fastify's router has no such answer of its own: it only says that nothing matched.
 */
export class RouteMethods {
  private readonly routes: { readonly pattern: RegExp; readonly methods: Set<string> }[] = [];
  private readonly byUrl = new Map<string, Set<string>>();

  /** Records a route as Fastify's `onRoute` hook gives it (`/v1/detection_rule/:id`). */
  add(method: string | readonly string[], url: string): void {
    let methods = this.byUrl.get(url);
    if (methods === undefined) {
      methods = new Set();
      this.byUrl.set(url, methods);
      this.routes.push({ pattern: patternOf(url), methods });
    }
    for (const m of typeof method === 'string' ? [method] : method) methods.add(m.toUpperCase());
  }

  /** The methods some route answers on this path (no query string), sorted; empty when none does. */
  allowedFor(path: string): string[] {
    const allowed = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m);
    return [...allowed].sort();
  }
}

// A path parameter (`:id`) is one non-empty segment, a `*` the rest of the path; the rest is literal.
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}
