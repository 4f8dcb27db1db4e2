// Deleting a contact book: type its name first (design brief, principle 7); the API's refusal while a
// live campaign or an active journey uses the book is shown in the dialog as the API words it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { ConfirmDialog } from '../ui/dialog.tsx';
import { formatCount } from '../ui/format.ts';
import { bookKeys, segmentKeys, type Book } from './contact-queries.tsx';

/** Delete a book: type its name; the API's refusal (a live campaign or journey uses it) shown as is. */
export function DeleteBookDialog({
  book,
  onOpenChange,
  onDeleted,
}: {
  book: Book | null;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) =>
      must(api.DELETE('/api/v1/contactBooks/{contactBookId}', { params: { path: { contactBookId: id } } })),
    onSuccess: async (_answer, id) => {
      toast('Contact book deleted');
      queryClient.removeQueries({ queryKey: bookKeys.one(id) });
      await queryClient.invalidateQueries({ queryKey: bookKeys.all });
      await queryClient.invalidateQueries({ queryKey: segmentKeys.all });
      onOpenChange(false);
      onDeleted?.();
    },
  });
  const count = book?._count.contacts ?? 0;
  return (
    <ConfirmDialog
      open={book !== null}
      onOpenChange={(open) => {
        if (!open) remove.reset();
        onOpenChange(open);
      }}
      title={`Delete the contact book ${book?.name ?? ''}?`}
      description={`Its ${formatCount(count)} ${count === 1 ? 'contact' : 'contacts'} and its segments are deleted with it. This cannot be undone.`}
      confirmLabel="Delete book"
      typeToConfirm={book?.name}
      pending={remove.isPending}
      error={remove.error?.message}
      onConfirm={() => book && remove.mutate(book.id)}
    />
  );
}
