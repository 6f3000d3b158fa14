import { useCallback, useState } from 'preact/hooks';

export interface RequestState<T> {
  readonly busy: boolean;
  readonly result: T | null;
  readonly error: unknown;
}

/** A request a page makes on demand (run tests, preview): whether it runs, its answer or its error. */
export function useRequest<T>(): RequestState<T> & { run: (work: () => Promise<T>) => Promise<void> } {
  const [state, setState] = useState<RequestState<T>>({ busy: false, result: null, error: null });
  const run = useCallback(async (work: () => Promise<T>) => {
    setState({ busy: true, result: null, error: null });
    try {
      setState({ busy: false, result: await work(), error: null });
    } catch (error) {
      setState({ busy: false, result: null, error });
    }
  }, []);
  return { ...state, run };
}
