import {
  editingStyleMessages,
  isAcceptedStyleReference,
  MAX_STYLE_REFERENCE_BYTES,
  styleReferencePrefix,
} from '@marketplace/events/editing-style';
import type { UploadTarget } from './upload-rules';

/**
 * A photographer's reference photos as direct uploads: the same signing and checking as order
 * photos and profile pictures (handlers/uploads/direct-upload.ts), under the photographer's own
 * style folder. The folder is named by the signed-in user's id, never by the request.
 */
export const styleReferenceUploads: UploadTarget = {
  prefix: styleReferencePrefix,
  isAccepted: isAcceptedStyleReference,
  fileTypeMessage: editingStyleMessages.fileType,
  folderMessage: 'A reference photo can only be uploaded to your own editing style folder',
  noun: 'reference photo',
  maxBytes: MAX_STYLE_REFERENCE_BYTES,
};
