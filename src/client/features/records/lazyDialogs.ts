// The record dialogs, loaded when first opened (components/lazyDialog.tsx).
import { lazyDialog } from '../../components/lazyDialog';

export const RecordDetailDialog = lazyDialog(
  async () => (await import('./RecordDetailDialog')).RecordDetailDialog,
  (props) => !!props.recordId,
);
