/** Commander accumulator for repeatable, comma-separable options: --role a --role b,c -> [a, b, c]. */
export function collectList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

/** How the command line is named in the audit log (it runs with the database's own access, so no person is known). */
export const CLI_ACTOR = 'cli';
