// The console's data table: TanStack Table (row model, sorting) and TanStack Virtual (only the rows
// in view are in the DOM above VIRTUAL_FROM rows, so 10,000 rows scroll smoothly). The sort is in
// the URL (?sort=token, ?sort=-token: descending), so it survives a reload and a pasted link.
// Keyboard: the column headers are buttons (Enter/Space sorts); in the body one row takes the Tab
// stop and ArrowUp/ArrowDown, PageUp/PageDown, Home/End move between rows.
import { getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParam } from './router';

export interface Column<T> {
  key: string;
  label: string;
  value: (row: T) => string | number;
  render?: (row: T) => ReactNode;
}

/** Below this many rows every row is rendered (no scroll box of its own). */
export const VIRTUAL_FROM = 200;
const ROW_ESTIMATE = 44;

function compare(x: string | number, y: string | number): number {
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
}

/** A table whose column headers sort it (click or Enter/Space; aria-sort says the order). */
export function SortableTable<T>({ rows, columns, caption, rowKey, initialSort, sortParam = 'sort' }: {
  rows: T[];
  columns: Column<T>[];
  caption: string;
  rowKey: (r: T) => string;
  initialSort?: string;
  /** The query-string name holding the sort (two tables on one page need two names). */
  sortParam?: string;
}) {
  const [sortRaw, setSortRaw] = useSearchParam(sortParam, '');
  const wanted = sortRaw.replace(/^-/, '');
  const key = columns.some((c) => c.key === wanted) ? wanted : initialSort ?? columns[0].key;
  const desc = sortRaw.startsWith('-') && key === wanted;
  const sorting: SortingState = useMemo(() => [{ id: key, desc }], [key, desc]);
  const defs = useMemo<ColumnDef<T>[]>(
    () => columns.map((c) => ({ id: c.key, header: c.label, accessorFn: (r: T) => c.value(r), sortingFn: (a, b) => compare(c.value(a.original), c.value(b.original)) })),
    [columns],
  );
  const table = useReactTable({
    data: rows, columns: defs, state: { sorting }, getRowId: (r) => rowKey(r), enableSortingRemoval: false,
    getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel(), manualSorting: false,
  });
  const sorted = table.getRowModel().rows;
  const virtual = sorted.length > VIRTUAL_FROM;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? sorted.length : 0, getScrollElement: () => scroller.current, estimateSize: () => ROW_ESTIMATE, overscan: 8,
    initialRect: { width: 1200, height: 600 },
  });
  const [active, setActive] = useState(0);
  const wantFocus = useRef(false);
  useEffect(() => {
    // The row may render only once the virtualizer scrolled to it: keep trying on each render.
    if (!wantFocus.current) return;
    const row = scroller.current?.querySelector<HTMLElement>(`tr[data-index="${active}"]`);
    if (!row) return;
    wantFocus.current = false;
    row.focus();
  });
  const toggle = (k: string) => setSortRaw(k === key && !desc ? `-${k}` : k === (initialSort ?? columns[0].key) ? '' : k);
  const onKey = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = 10;
    const last = sorted.length - 1;
    const next = e.key === 'ArrowDown' ? active + 1 : e.key === 'ArrowUp' ? active - 1 : e.key === 'PageDown' ? active + page : e.key === 'PageUp' ? active - page : e.key === 'Home' ? 0 : e.key === 'End' ? last : null;
    if (next === null || (e.target as HTMLElement).tagName !== 'TR') return;
    e.preventDefault();
    const to = Math.max(0, Math.min(last, next));
    setActive(to);
    wantFocus.current = true;
    if (virtual) virtualizer.scrollToIndex(to, { align: 'auto' });
  };
  const items = virtual ? virtualizer.getVirtualItems() : null;
  const shown = items ? items.map((v) => ({ index: v.index, row: sorted[v.index] })) : sorted.map((row, index) => ({ index, row }));
  const padTop = items && items.length ? items[0].start : 0;
  const padBottom = items && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const byKey = new Map(columns.map((c) => [c.key, c]));
  return (
    <div className={`table-wrap${virtual ? ' virtual' : ''}`} ref={scroller} data-rows={sorted.length}>
      <table aria-rowcount={sorted.length + 1}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c) => (
              <th key={c.key} scope="col" aria-sort={c.key === key ? (desc ? 'descending' : 'ascending') : 'none'}>
                <button type="button" className="sort" onClick={() => toggle(c.key)}>
                  {c.label}
                  <span aria-hidden="true">{c.key === key ? (desc ? ' ▼' : ' ▲') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody onKeyDown={onKey}>
          {padTop > 0 && <tr className="spacer" aria-hidden="true" style={{ height: padTop }} />}
          {shown.map(({ index, row }) => (
            <tr
              key={row.id} data-index={index} aria-rowindex={index + 2} tabIndex={index === Math.min(active, sorted.length - 1) ? 0 : -1}
              ref={virtual ? virtualizer.measureElement : undefined} onFocus={() => setActive(index)}
            >
              {row.getVisibleCells().map((cell) => {
                const c = byKey.get(cell.column.id)!;
                return <td key={cell.id} data-label={c.label}>{c.render ? c.render(row.original) : c.value(row.original)}</td>;
              })}
            </tr>
          ))}
          {padBottom > 0 && <tr className="spacer" aria-hidden="true" style={{ height: padBottom }} />}
        </tbody>
      </table>
    </div>
  );
}
