import { useEffect, useState } from 'react';
import type { EntitySearch } from '../../components/routing/area.ts';
import type { PaletteCommand } from './commands.ts';

const debounceMs = 200;

/**
 * Asks every area that can search its entities (applications, users…) once the query settles; a newer query aborts
 * the older requests. An area whose search fails is left out, so one broken area never empties the palette.
 */
export function useEntitySearch(
  searches: readonly EntitySearch[],
  query: string,
  resolve: (path: string) => string,
  tenantId?: string,
): { results: PaletteCommand[]; isSearching: boolean } {
  const [state, setState] = useState<{ query: string; results: PaletteCommand[] }>({ query: '', results: [] });
  const trimmed = query.trim();

  useEffect(() => {
    if (!trimmed || searches.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const settled = await Promise.allSettled(
        searches.map((search) => search(trimmed, controller.signal, { tenantId })),
      );
      if (controller.signal.aborted) return;
      const results = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
      setState({
        query: trimmed,
        results: results.map((entity) => ({
          id: `entity:${entity.kind}:${entity.id}`,
          label: entity.label,
          group: entity.kind,
          to: resolve(entity.to),
        })),
      });
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [searches, trimmed, resolve, tenantId]);

  const isCurrent = state.query === trimmed;
  return {
    results: trimmed && isCurrent ? state.results : [],
    isSearching: Boolean(trimmed) && searches.length > 0 && !isCurrent,
  };
}
