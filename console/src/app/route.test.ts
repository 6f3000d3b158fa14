import { describe, expect, it } from 'vitest';
import { pathOf, routeOf, type Route } from './route.js';

describe('console routes', () => {
  it('reads every page from its path and writes it back', () => {
    const routes: Route[] = [
      { page: 'search' },
      { page: 'rules' },
      { page: 'rule', id: 'r 1/2' },
      { page: 'alerts' },
      { page: 'alert', id: 'a1' },
      { page: 'sinks' },
      { page: 'indexes' },
      { page: 'keys' },
    ];
    for (const route of routes) expect(routeOf(pathOf(route))).toEqual(route);
  });

  it('opens the search page at the root', () => {
    expect(routeOf('/')).toEqual({ page: 'search' });
  });

  it('answers unknown paths as not found', () => {
    expect(routeOf('/nope')).toEqual({ page: 'not-found', path: '/nope' });
    expect(routeOf('/rules/a/b')).toEqual({ page: 'not-found', path: '/rules/a/b' });
    expect(routeOf('/sinks/x')).toEqual({ page: 'not-found', path: '/sinks/x' });
  });
});
