// "New template": name, subject, type and an HTML body (optional: a marketing template without one
// gets the default unsubscribe footer); the API's field errors beside the fields; opens the editor.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, must } from '../api/client.ts';
import { Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';

export const typeLabel = (type: string) => (type === 'MARKETING' ? 'Marketing' : 'Transactional');

const STARTER_HTML = '<h1>Hello {{firstName}}</h1>\n<p>Write your message here.</p>';

export function CreateTemplate({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [type, setType] = useState<'TRANSACTIONAL' | 'MARKETING'>('TRANSACTIONAL');
  const [html, setHtml] = useState(STARTER_HTML);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/templates', {
          body: { name, subject, type, ...(html.trim() ? { html } : {}) },
        }),
      ),
    onSuccess: async (created) => {
      queryClient.setQueryData(['templates', 'one', created.id], created);
      await queryClient.invalidateQueries({ queryKey: ['templates', 'list'] });
      onOpenChange(false);
      navigate(`/templates/${created.id}`);
    },
  });
  const failure = splitFieldError(create.error, ['name', 'subject', 'type', 'html']);
  const fieldError = (field: string) => (failure?.field === field ? failure.message : undefined);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
      title="New template"
      description="Subject and body may use {{variables}}, filled when you send with the template's id."
      submitLabel="Create template"
      pending={create.isPending}
      error={failure && !failure.field ? failure.message : null}
      onSubmit={() => create.mutate()}
    >
      <Field label="Name" hint="For people: e.g. Password reset" error={fieldError('name')}>
        {(props) => <input {...props} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Subject" error={fieldError('subject')}>
        {(props) => (
          <input {...props} className={inputClass} value={subject} onChange={(e) => setSubject(e.target.value)} />
        )}
      </Field>
      <Field label="Type" error={fieldError('type')}>
        {(props) => (
          <select
            {...props}
            className={inputClass}
            value={type}
            onChange={(e) => setType(e.target.value as typeof type)}
          >
            <option value="TRANSACTIONAL">Transactional</option>
            <option value="MARKETING">Marketing (adds the unsubscribe footer)</option>
          </select>
        )}
      </Field>
      <Field label="HTML" hint="You can switch to blocks in the editor." error={fieldError('html')}>
        {(props) => (
          <textarea
            {...props}
            rows={6}
            spellCheck={false}
            className="block w-full rounded-md border border-control bg-bg p-2 font-mono text-[12px] leading-5"
            value={html}
            onChange={(e) => setHtml(e.target.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
