// A chart.js canvas with a text alternative (a table of the same numbers for screen readers).
import { useEffect, useRef } from 'react';
import Chart from 'chart.js/auto';

const PALETTE = ['#1f5fbf', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0f766e', '#a16207', '#be185d', '#4338ca', '#475569'];

export interface Series {
  label: string;
  values: number[];
}

export function ChartView({ kind, title, labels, series }: { kind: 'bar' | 'line' | 'doughnut'; title: string; labels: string[]; series: Series[] }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = new Chart(ref.current, {
      type: kind,
      data: {
        labels,
        datasets: series.map((s, i) => ({
          label: s.label,
          data: s.values,
          backgroundColor: kind === 'doughnut' ? labels.map((_l, j) => PALETTE[j % PALETTE.length]) : PALETTE[i % PALETTE.length],
          borderColor: kind === 'line' ? PALETTE[i % PALETTE.length] : undefined,
        })),
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: kind === 'doughnut' || series.length > 1 } } },
    });
    return () => chart.destroy();
  }, [kind, labels, series]);
  return (
    <figure className="chart card">
      <figcaption>{title}</figcaption>
      <div className="chart-box"><canvas ref={ref} role="img" aria-label={`${title} (chart; the numbers follow in a table)`} /></div>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead><tr><th scope="col">Label</th>{series.map((s) => <th key={s.label} scope="col">{s.label}</th>)}</tr></thead>
        <tbody>{labels.map((l, i) => <tr key={l}><th scope="row">{l}</th>{series.map((s) => <td key={s.label}>{s.values[i]}</td>)}</tr>)}</tbody>
      </table>
    </figure>
  );
}
