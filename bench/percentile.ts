// The p-th percentile (nearest rank) of latencies sorted ascending: the figure every bench prints.
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
