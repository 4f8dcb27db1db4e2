// A journey's own fields (name, trigger, contact book, segment, leaving the segment), shared by the
// create dialog and the edit dialog; the API's errors beside each field.
import { Link } from 'react-router';
import { Field, inputClass } from '../ui/dialog.tsx';
import { useContactBooks, useSegments, type Journey, type TriggerType } from './journey-data.tsx';

export interface JourneyForm {
  name: string;
  triggerType: TriggerType;
  contactBookId: string;
  segmentId: string;
  exitWhenLeavesSegment: boolean;
}

export const JOURNEY_FIELDS = ['name', 'triggerType', 'contactBookId', 'segmentId', 'exitWhenLeavesSegment', 'steps'];

export const emptyJourneyForm: JourneyForm = {
  name: '',
  triggerType: 'API',
  contactBookId: '',
  segmentId: '',
  exitWhenLeavesSegment: false,
};

export function formOf(journey: Journey): JourneyForm {
  return {
    name: journey.name,
    triggerType: journey.triggerType,
    contactBookId: journey.contactBookId ?? '',
    segmentId: journey.segmentId ?? '',
    exitWhenLeavesSegment: journey.exitWhenLeavesSegment,
  };
}

/** The body fields the API takes for these values (a segment only with its book). */
export function bodyOf(form: JourneyForm) {
  return {
    name: form.name.trim(),
    triggerType: form.triggerType,
    contactBookId: form.contactBookId,
    segmentId: form.segmentId || null,
    exitWhenLeavesSegment: form.segmentId ? form.exitWhenLeavesSegment : false,
  };
}

export function JourneyFields({
  value,
  onChange,
  errors,
}: {
  value: JourneyForm;
  onChange: (next: JourneyForm) => void;
  errors: Record<string, string>;
}) {
  const books = useContactBooks();
  const segments = useSegments(value.contactBookId || null);
  const set = (change: Partial<JourneyForm>) => onChange({ ...value, ...change });
  return (
    <>
      <Field label="Name" error={errors.name}>
        {(props) => (
          <input {...props} className={inputClass} value={value.name} onChange={(e) => set({ name: e.target.value })} />
        )}
      </Field>
      <Field
        label="Trigger"
        error={errors.triggerType}
        hint={
          value.triggerType === 'API'
            ? 'Contacts join when your code enrols them: POST /v1/journeys/{id}/enroll.'
            : 'Each contact added to the book joins while the journey is active.'
        }
      >
        {(props) => (
          <select
            {...props}
            className={inputClass}
            value={value.triggerType}
            onChange={(e) => set({ triggerType: e.target.value as TriggerType })}
          >
            <option value="API">Enrolled through the API</option>
            <option value="CONTACT_ADDED">A contact is added to the book</option>
          </select>
        )}
      </Field>
      <Field
        label="Contact book"
        error={errors.contactBookId}
        hint={books.data?.length === 0 ? 'No contact books yet: make one under Contacts first.' : undefined}
      >
        {(props) => (
          <select
            {...props}
            className={inputClass}
            value={value.contactBookId}
            // Another book's segment is not this book's: a new book starts without one.
            onChange={(e) => set({ contactBookId: e.target.value, segmentId: '', exitWhenLeavesSegment: false })}
          >
            <option value="">Choose a contact book</option>
            {value.contactBookId && books.data && !books.data.some((b) => b.id === value.contactBookId) ? (
              <option value={value.contactBookId}>{value.contactBookId}</option>
            ) : null}
            {books.data?.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {books.data?.length === 0 ? (
        <Link to="/contacts" className="text-[13px] text-link underline underline-offset-2">
          Contacts
        </Link>
      ) : null}
      <Field label="Segment (optional)" error={errors.segmentId}>
        {(props) => (
          <select
            {...props}
            className={inputClass}
            value={value.segmentId}
            disabled={!value.contactBookId}
            onChange={(e) =>
              set({
                segmentId: e.target.value,
                exitWhenLeavesSegment: e.target.value ? value.exitWhenLeavesSegment : false,
              })
            }
          >
            <option value="">Every contact in the book</option>
            {value.segmentId && segments.data && !segments.data.data.some((s) => s.id === value.segmentId) ? (
              <option value={value.segmentId}>{value.segmentId}</option>
            ) : null}
            {segments.data?.data.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {value.segmentId ? (
        <div>
          <label className="flex items-center gap-2 text-[13px]">
            <input
              type="checkbox"
              className="size-4 accent-[var(--accent)]"
              checked={value.exitWhenLeavesSegment}
              onChange={(e) => set({ exitWhenLeavesSegment: e.target.checked })}
            />
            A contact who leaves the segment leaves the journey before its next email
          </label>
          {errors.exitWhenLeavesSegment ? (
            <p className="mt-1 text-[13px] text-[var(--tone-danger)]">{errors.exitWhenLeavesSegment}</p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
