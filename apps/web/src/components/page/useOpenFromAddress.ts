import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Opens what the address names (`?ruleset=7`): a link from elsewhere (Home's expiring list)
 * leads straight into an editor. `open(id)` answers whether it was handled (opened, or known
 * not to exist); until then (its list still loading) the parameter waits. Once handled it is
 * taken out of the address, so closing the editor does not open it again and the same link
 * opens it anew.
 */
export function useOpenFromAddress(name: string, open: (id: number) => boolean): void {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get(name));
  const id = Number.isInteger(raw) && raw > 0 ? raw : null;
  useEffect(() => {
    if (id === null || !open(id)) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [id, name, open, setParams]);
}
