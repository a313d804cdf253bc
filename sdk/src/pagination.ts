// Cursor iteration over the API's lists ({items, next_cursor} on the wire; {items, nextCursor} in the SDK).
import type { Page } from './types.js';

/**
 * A lazily fetched list: `for await (const item of list)` walks every page; `pages()` yields
 * whole pages; `first()` fetches only the first page; `toArray({max})` collects.
 */
export class PagedList<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {}

  /** The first page only (its nextCursor continues the list). */
  first(): Promise<Page<T>> {
    return this.fetchPage(undefined);
  }

  /** One page: the first without a cursor, else the page a previous nextCursor points to. */
  page(cursor?: string | null): Promise<Page<T>> {
    return this.fetchPage(cursor ?? undefined);
  }

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      if (!page.nextCursor) return;
      cursor = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item (at most `max`, default unlimited). */
  async toArray({ max = Infinity }: { max?: number } = {}): Promise<T[]> {
    const out: T[] = [];
    if (max <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }
}
