// CSV import into a book, all in the browser: parse the file, map its columns on a 20-row preview,
// check each row by the API's rules, send the good ones to the bulk add 1,000 at a time with a
// progress bar, then list the rejected rows with their reasons and offer them as a CSV download.
// A 400 naming a row the checks here missed rejects that row with the API's reason and resends the rest.
import { useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useRef, useState } from 'react';
import { api, toFailure } from '../api/client.ts';
import {
  guessMapping,
  mappingProblem,
  readContactRows,
  rejectedRowsCsv,
  rowOfBatchError,
  type ColumnTarget,
  type ImportRow,
  type Rejection,
} from '../lib/csv-contacts.ts';
import { CsvSyntaxError, parseCsv, type CsvRecord } from '../lib/csv-parse.ts';
import { Button } from '../ui/button.tsx';
import { formatCount } from '../ui/format.ts';
import { FilePicker, ImportProgress, MappingPreview, RejectedRows } from './contact-import-parts.tsx';
import { bookKeys, contactKeys, segmentKeys, type Book } from './contact-queries.tsx';

/** The API's limit per bulk add (contract: Limits). */
const BATCH = 1000;

interface Parsed {
  fileName: string;
  header: string[];
  records: CsvRecord[];
}

type Phase = 'choose' | 'map' | 'running' | 'done' | 'failed';

interface Run {
  total: number;
  done: number;
  added: number;
  updated: number;
  rejected: Rejection[];
  /** The batches still to send (kept so a failed run can go on where it stopped). */
  pending: ImportRow[][];
  error: string | null;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ContactImport({
  book,
  open,
  onOpenChange,
}: {
  book: Book;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>('choose');
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [parseError, setParseError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnTarget[]>([]);
  const [run, setRun] = useState<Run | null>(null);
  const stopped = useRef(false);

  const reset = () => {
    setPhase('choose');
    setParsed(null);
    setParseError(null);
    setRun(null);
  };

  const readFile = async (file: File) => {
    setParseError(null);
    try {
      const [first, ...rest] = parseCsv(await file.text());
      if (!first) throw new CsvSyntaxError('the file is empty');
      const header = first.fields.map((name) => name.trim());
      setParsed({ fileName: file.name, header, records: rest });
      setMapping(guessMapping(header));
      setPhase('map');
    } catch (error) {
      setParseError(error instanceof CsvSyntaxError ? error.message : `The file could not be read: ${String(error)}`);
    }
  };

  /** Sends the pending batches one after another; stops on an answer other than 200 or 400. */
  const send = async (state: Run) => {
    setPhase('running');
    stopped.current = false;
    const current: Run = { ...state, pending: [...state.pending], rejected: [...state.rejected], error: null };
    setRun({ ...current });
    while (current.pending.length > 0 && !stopped.current) {
      let batch = current.pending[0]!;
      while (batch.length > 0) {
        const { data, error, response } = await api.POST('/api/v1/contactBooks/{contactBookId}/contacts/bulk', {
          params: { path: { contactBookId: book.id } },
          body: batch.map((row) => row.input),
        });
        if (response.ok && data) {
          const counts = /(\d+) contacts? added, (\d+) updated/.exec(data.message);
          current.added += counts ? Number(counts[1]) : data.count;
          current.updated += counts ? Number(counts[2]) : 0;
          current.done += batch.length;
          break;
        }
        const failure = toFailure(response.status, error);
        if (response.status !== 400) {
          current.error = `${failure.message} (${failure.status} ${failure.code})`;
          current.pending[0] = batch;
          setRun({ ...current });
          setPhase('failed');
          return;
        }
        const named = rowOfBatchError(failure.message);
        if (named && named.index < batch.length) {
          current.rejected.push({ record: batch[named.index]!.record, reason: named.reason });
          batch = batch.filter((_, i) => i !== named.index);
          current.done += 1;
        } else {
          for (const row of batch) current.rejected.push({ record: row.record, reason: failure.message });
          current.done += batch.length;
          batch = [];
        }
      }
      current.pending.shift();
      setRun({ ...current });
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: contactKeys.book(book.id) }),
      queryClient.invalidateQueries({ queryKey: bookKeys.all }),
      queryClient.invalidateQueries({ queryKey: segmentKeys.all }),
    ]);
    setPhase(current.pending.length > 0 ? 'failed' : 'done');
    if (current.pending.length > 0) setRun({ ...current, error: 'Stopped before the last rows were sent.' });
  };

  const start = () => {
    if (!parsed) return;
    const { rows, rejected } = readContactRows(parsed.header, parsed.records, mapping);
    const pending: ImportRow[][] = [];
    for (let i = 0; i < rows.length; i += BATCH) pending.push(rows.slice(i, i + BATCH));
    const total = parsed.records.length;
    void send({ total, done: rejected.length, added: 0, updated: 0, rejected, pending, error: null });
  };

  const problem = parsed ? mappingProblem(parsed.header, mapping) : null;
  const emailColumn = mapping.indexOf('email');
  const busy = phase === 'running';
  const close = (next: boolean) => {
    if (next || busy) return;
    onOpenChange(false);
    reset();
  };

  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 max-h-[92vh] w-[calc(100vw-24px)] max-w-4xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-line bg-bg p-5 shadow-xl"
        >
          <div className="flex items-start justify-between gap-2">
            <Dialog.Title className="text-[16px] leading-6 font-semibold">
              Import contacts into {book.name}
            </Dialog.Title>
            <Dialog.Close
              disabled={busy}
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-muted disabled:opacity-50"
              aria-label="Close"
            >
              <X aria-hidden="true" size={16} />
            </Dialog.Close>
          </div>
          <div className="mt-4 space-y-4 text-[13px]">
            {phase === 'choose' ? (
              <>
                <FilePicker onFile={(file) => void readFile(file)} />
                {parseError ? (
                  <p role="alert" className="text-[var(--tone-danger)]">
                    {parseError}
                  </p>
                ) : null}
                <p className="text-fg-2">
                  Columns named email, firstName, lastName and subscribed fill those fields; any other column becomes a
                  property. An address already in the book is updated; empty cells leave its fields as they are.
                </p>
              </>
            ) : null}
            {phase === 'map' && parsed ? (
              <>
                <p>
                  <span className="font-medium">{parsed.fileName}</span>:{' '}
                  <span className="tabular">{formatCount(parsed.records.length)}</span> rows. Choose what each column
                  is; the first 20 rows are shown.
                </p>
                <MappingPreview
                  header={parsed.header}
                  records={parsed.records}
                  mapping={mapping}
                  onMapping={setMapping}
                />
                {problem ? (
                  <p role="alert" className="text-[var(--tone-danger)]">
                    {problem}
                  </p>
                ) : null}
                <div className="flex justify-end gap-2">
                  <Button onClick={reset}>Choose another file</Button>
                  <Button variant="primary" disabled={problem !== null || parsed.records.length === 0} onClick={start}>
                    Import {formatCount(parsed.records.length)} rows
                  </Button>
                </div>
              </>
            ) : null}
            {run && parsed && phase !== 'choose' && phase !== 'map' ? (
              <>
                <ImportProgress
                  done={run.done}
                  total={run.total}
                  label={phase === 'running' ? 'Importing…' : phase === 'done' ? 'Import finished' : 'Import stopped'}
                />
                {phase === 'running' ? (
                  <div className="flex justify-end">
                    <Button onClick={() => (stopped.current = true)}>Stop after this batch</Button>
                  </div>
                ) : null}
                {phase === 'failed' ? (
                  <div role="alert" className="rounded-md bg-[var(--tone-danger-bg)] p-3 text-[var(--tone-danger)]">
                    {run.error}
                  </div>
                ) : null}
                {phase !== 'running' ? (
                  <section aria-label="Import summary" className="space-y-3">
                    <p role="status" className="tabular">
                      {formatCount(run.added)} added · {formatCount(run.updated)} updated ·{' '}
                      {formatCount(run.rejected.length)} rejected
                    </p>
                    {run.rejected.length > 0 ? (
                      <RejectedRows header={parsed.header} rejected={run.rejected} emailColumn={emailColumn} />
                    ) : null}
                    <div className="flex flex-wrap justify-end gap-2">
                      {run.rejected.length > 0 ? (
                        <Button
                          onClick={() =>
                            download(
                              `${parsed.fileName.replace(/\.csv$/i, '')}.rejected.csv`,
                              rejectedRowsCsv(parsed.header, run.rejected),
                            )
                          }
                        >
                          Download rejected rows (CSV)
                        </Button>
                      ) : null}
                      {phase === 'failed' && run.pending.length > 0 ? (
                        <Button onClick={() => void send(run)}>Go on with the remaining rows</Button>
                      ) : null}
                      <Button variant="primary" onClick={() => close(false)}>
                        Done
                      </Button>
                    </div>
                  </section>
                ) : null}
              </>
            ) : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
