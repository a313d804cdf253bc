/** Commander accumulator for repeatable, comma-separable options: --role a --role b,c -> [a, b, c]. */
export function collectList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}
