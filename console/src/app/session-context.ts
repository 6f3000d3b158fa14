import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { VigilClient } from '../api/vigil-client.js';
import type { Me } from '../api/types.js';

/** What every page needs: the client scoped to the chosen tenant and who is signed in. */
export interface Session {
  readonly client: VigilClient;
  readonly me: Me;
  readonly tenantId: string;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}
