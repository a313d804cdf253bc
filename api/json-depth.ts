// How deep a JSON request body may nest (SVC_API__JSON_MAX_DEPTH). Validation, the NUL check and
// zod walk the parsed value recursively, so a body nested 100,000 deep (200 kB, well under the size
// limit) would overflow the stack there: the depth is measured first, with an explicit stack (no
// recursion), and a deeper body is refused as a 400 naming the limit.
import { BadRequestError } from './errors';

/** True when `value` nests arrays/objects more than `maxDepth` levels (`{}` and `[]` are depth 1). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export class JsonTooDeepError extends BadRequestError {
  constructor(maxDepth: number, path: string) {
    super('json_too_deep', `${path} nests deeper than the limit of ${maxDepth} levels (SVC_API__JSON_MAX_DEPTH)`, [
      { path, message: `nests deeper than ${maxDepth} levels` },
    ]);
  }
}

/** Throws JsonTooDeepError when `value` nests deeper than `maxDepth`. */
export function assertJsonDepth(value: unknown, maxDepth: number, path = 'body'): void {
  if (nestsDeeperThan(value, maxDepth)) throw new JsonTooDeepError(maxDepth, path);
}
