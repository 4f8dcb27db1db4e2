// The one chart: uPlot (canvas, ≈23 KB), in its own chunk so the first page does not carry it.
// Colours come from the CSS variables, so it follows the theme; the legend toggles series.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Day } from './overview.tsx';

const SERIES: { key: keyof Omit<Day, 'date'>; label: string; colour: string }[] = [
  { key: 'sent', label: 'Sent', colour: '--tone-info' },
  { key: 'delivered', label: 'Delivered', colour: '--tone-success' },
  { key: 'bounced', label: 'Bounced', colour: '--tone-danger' },
  { key: 'complained', label: 'Complained', colour: '--tone-warning' },
];

const DAY = 86_400;
const DAY_INCREMENTS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY];
const COUNT_INCREMENTS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1e6, 1e7,
];
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

export default function SeriesChart({ days }: { days: Day[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const axis = { stroke: cssVar('--fg-2'), grid: { stroke: cssVar('--line') }, ticks: { stroke: cssVar('--line') } };
    const data: uPlot.AlignedData = [
      days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000),
      ...SERIES.map((s) => days.map((d) => d[s.key])),
    ];
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 200,
        series: [
          { label: 'Day', value: (_u, v) => (v == null ? '–' : dayLabel.format(v * 1000)) },
          ...SERIES.map((s) => ({ label: s.label, stroke: cssVar(s.colour), width: 2 })),
        ],
        axes: [
          // One tick per day or more (the data are days), in the dashboard's date format; counts are whole.
          { ...axis, incrs: DAY_INCREMENTS, values: (_u, splits) => splits.map((s) => dayLabel.format(s * 1000)) },
          { ...axis, incrs: COUNT_INCREMENTS },
        ],
        scales: { x: { time: true } },
        legend: { live: true },
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 200 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days]);
  return <div ref={box} role="img" aria-label="Emails per day: sent, delivered, bounced, complained" />;
}
