// One template: the editor with its live preview, or the not-found page for a missing id and another
// team's id alike (the API answers both 404).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, ApiFailure, must } from '../api/client.ts';
import { ErrorState, Loading } from '../ui/states.tsx';
import { NotFound } from './not-found.tsx';
import { TemplateEditor } from './template-editor.tsx';
import type { Samples } from './template-variables.tsx';

export default function TemplateDetail() {
  const { id = '' } = useParams();
  const [samples, setSamples] = useState<Samples>({});
  const template = useQuery({
    queryKey: ['templates', 'one', id],
    queryFn: ({ signal }) =>
      must(api.GET('/api/v1/templates/{templateId}', { params: { path: { templateId: id } }, signal })),
  });
  if (template.isPending) return <Loading label="Loading the template" />;
  if (template.isError) {
    if (template.error instanceof ApiFailure && template.error.status === 404)
      return <NotFound what="template" back={{ to: '/templates', label: 'Back to Templates' }} />;
    return <ErrorState error={template.error} onRetry={() => void template.refetch()} />;
  }
  return <TemplateEditor key={template.data.id} template={template.data} samples={samples} onSamples={setSamples} />;
}
