// Deleting a template, confirmed (focus on Cancel): from the list and from the editor.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { ConfirmDialog } from '../ui/dialog.tsx';

export function DeleteTemplateDialog({
  template,
  onClose,
  onDeleted,
}: {
  template: { id: string; name: string } | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (templateId: string) =>
      must(api.DELETE('/api/v1/templates/{templateId}', { params: { path: { templateId } } })),
    onSuccess: async (_answer, templateId) => {
      toast(`Template ${template?.name ?? ''} deleted`);
      onClose();
      queryClient.removeQueries({ queryKey: ['templates', 'one', templateId] });
      await queryClient.invalidateQueries({ queryKey: ['templates', 'list'] });
      onDeleted?.();
    },
  });
  return (
    <ConfirmDialog
      open={template !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={`Delete template ${template?.name ?? ''}?`}
      description="Sends that name its id fail from now on; emails already sent from it are not affected. This cannot be undone."
      confirmLabel="Delete template"
      pending={remove.isPending}
      error={remove.error?.message}
      onConfirm={() => template && remove.mutate(template.id)}
    />
  );
}
