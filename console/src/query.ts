// The console's one data cache (TanStack Query): answers shown at once when cached and refreshed in
// the background (on mount, on window focus); pages call invalidateLoads() after a change they made
// so every list shows it.
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 0, gcTime: 5 * 60_000, refetchOnWindowFocus: true } },
});

/** Marks every cached answer stale and refetches the ones on screen (after a write). */
export function invalidateLoads(): void {
  void queryClient.invalidateQueries({ queryKey: ['load'] });
}
