// The pieces of the CSV import: the file picker (click or drop), the 20-row preview with a column
// mapping per column, the progress bar, and the rejected rows with their reasons.
import { Upload } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { formatCount } from '../ui/format.ts';
import { Table, Td, Th } from '../ui/table.tsx';
import { targetLabels, type ColumnTarget, type Rejection } from '../lib/csv-contacts.ts';
import type { CsvRecord } from '../lib/csv-parse.ts';

export function FilePicker({ onFile }: { onFile: (file: File) => void }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`rounded-lg border border-dashed p-6 text-center text-[13px] ${over ? 'border-accent bg-muted' : 'border-control'}`}
    >
      <Upload aria-hidden="true" size={20} className="mx-auto mb-2 text-fg-2" />
      <label htmlFor={id} className="font-medium">
        CSV file
      </label>
      <p className="mt-1 text-fg-2">Drop it here or choose it. The first line names the columns; one needs email.</p>
      <input
        id={id}
        type="file"
        accept=".csv,text/csv"
        className="mx-auto mt-3 block max-w-full text-[13px]"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
        }}
      />
    </div>
  );
}

const targets: ColumnTarget[] = ['email', 'firstName', 'lastName', 'subscribed', 'property', 'skip'];

export function MappingPreview({
  header,
  records,
  mapping,
  onMapping,
}: {
  header: readonly string[];
  records: readonly CsvRecord[];
  mapping: readonly ColumnTarget[];
  onMapping: (next: ColumnTarget[]) => void;
}) {
  const preview = records.slice(0, 20);
  return (
    <Table label="Preview of the first rows" className="max-h-[45vh] overflow-y-auto">
      <thead>
        <tr>
          <Th className="w-[56px]">Line</Th>
          {header.map((name, index) => (
            <Th key={index} className="w-[160px] align-top">
              <span className="block truncate py-1 text-fg" title={name}>
                {name || `(column ${index + 1})`}
              </span>
              <select
                aria-label={`Import column “${name || index + 1}” as`}
                className="mb-1 h-7 w-full rounded-md border border-control bg-bg px-1 text-[12px] font-normal"
                value={mapping[index]}
                onChange={(e) => onMapping(mapping.map((t, i) => (i === index ? (e.target.value as ColumnTarget) : t)))}
              >
                {targets.map((target) => (
                  <option key={target} value={target}>
                    {target === 'property' ? `Property “${name.trim() || '?'}”` : targetLabels[target]}
                  </option>
                ))}
              </select>
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {preview.map((record) => (
          <tr key={record.line}>
            <Td className="text-fg-2 tabular">{record.line}</Td>
            {header.map((_, index) => (
              <Td key={index} className={mapping[index] === 'skip' ? 'text-fg-2 line-through' : undefined}>
                {record.fields[index] ?? ''}
              </Td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function ImportProgress({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  return (
    <div>
      <div className="mb-1 flex justify-between text-[13px]">
        <span id="import-progress-label">{label}</span>
        <span className="text-fg-2 tabular">
          {formatCount(done)} of {formatCount(total)} rows
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="import-progress-label"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${formatCount(done)} of ${formatCount(total)} rows`}
        className="h-2 overflow-hidden rounded bg-muted"
      >
        <div className="h-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

const SHOWN = 100;

export function RejectedRows({
  header,
  rejected,
  emailColumn,
}: {
  header: readonly string[];
  rejected: readonly Rejection[];
  emailColumn: number;
}) {
  const sorted = [...rejected].sort((a, b) => a.record.line - b.record.line).slice(0, SHOWN);
  return (
    <>
      <Table label="Rejected rows" className="max-h-[40vh] overflow-y-auto">
        <colgroup>
          <col className="w-[64px]" />
          <col className="w-[40%]" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <Th>Line</Th>
            <Th>{header[emailColumn] ?? 'Email'}</Th>
            <Th>Reason</Th>
          </tr>
        </thead>
        <tbody>
          {sorted.map(({ record, reason }) => (
            <tr key={record.line}>
              <Td className="text-fg-2 tabular">{record.line}</Td>
              <Td>{record.fields[emailColumn] ?? ''}</Td>
              <Td className="whitespace-normal" title={reason}>
                {reason}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {rejected.length > SHOWN ? (
        <p className="text-[12px] text-fg-2">
          The first {SHOWN} of {formatCount(rejected.length)} are shown; the download has them all.
        </p>
      ) : null}
    </>
  );
}
