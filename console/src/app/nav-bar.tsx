import type { Me } from '../api/types.js';
import { Link } from './link.js';
import type { Route } from './route.js';

const pages: readonly { page: Route['page']; href: string; label: string; adminOnly?: boolean }[] = [
  { page: 'search', href: '/search', label: 'Search' },
  { page: 'rules', href: '/rules', label: 'Rules' },
  { page: 'alerts', href: '/alerts', label: 'Alerts' },
  { page: 'sinks', href: '/sinks', label: 'Sinks' },
  { page: 'indexes', href: '/indexes', label: 'Indexes' },
  { page: 'keys', href: '/keys', label: 'Keys', adminOnly: true },
];

/** The console's header: the pages, the tenant in use (a picker when the key holds several) and sign out. */
export function NavBar(props: { route: Route; me: Me; tenantId: string; onTenant: (id: string) => void; onSignOut: () => void }) {
  const current = props.route.page === 'rule' ? 'rules' : props.route.page === 'alert' ? 'alerts' : props.route.page;
  return (
    <header class="nav-bar">
      <Link href="/search" class="brand">
        Vigil
      </Link>
      <nav aria-label="Pages">
        <ul>
          {pages
            .filter((p) => !p.adminOnly || props.me.api_key.admin)
            .map((p) => (
              <li key={p.page}>
                <Link href={p.href} aria-current={current === p.page ? 'page' : undefined}>
                  {p.label}
                </Link>
              </li>
            ))}
        </ul>
      </nav>
      <div class="nav-tools">
        {props.me.tenants.length > 1 ? (
          <label class="tenant-picker">
            <span>Tenant</span>
            <select value={props.tenantId} onChange={(e) => props.onTenant((e.currentTarget as HTMLSelectElement).value)}>
              {props.me.tenants.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="tenant-name" title="Tenant">
            {props.me.tenants[0]?.name ?? props.tenantId}
          </span>
        )}
        <span class="key-name" title="Signed in with this API key">
          {props.me.api_key.name}
        </span>
        <button type="button" class="secondary" onClick={props.onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
