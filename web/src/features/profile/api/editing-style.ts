import {
  acceptedStyleReferenceTypes,
  type EditingStyle,
  type EditingStyleView,
  editingStyleMessages,
  isAcceptedStyleReference,
  MAX_STYLE_REFERENCE_BYTES,
  type StyleReferencePhoto,
  styleReferencePrefix,
} from '@marketplace/events/editing-style';
import useSWR from 'swr';
import { apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { createDirectUppy, uploadContentType } from '../../../lib/uploads/direct-s3-upload';

export const EDITING_STYLE_URL = '/api/profile/editing-style';
export const orderEditingStyleUrl = (orderId: string) => `/api/orders/${orderId}/editing-style`;

/** The photographer's saved editing style (the default, `saved: false`, until one is saved). */
export function useEditingStyle() {
  const { user } = useAuth();
  return useSWR<EditingStyleView>(user ? [EDITING_STYLE_URL, user.uid] : null);
}

/** An order's editing style as it was kept, its reference photos with links (whoever may see the order). */
export function useOrderEditingStyle(orderId: string | undefined) {
  const { user } = useAuth();
  return useSWR<EditingStyleView>(user && orderId ? [orderEditingStyleUrl(orderId), user.uid] : null);
}

export const saveEditingStyle = (style: EditingStyle) => apiPut<EditingStyleView>(EDITING_STYLE_URL, style);

/** Why a chosen file cannot be a reference photo, before anything is sent (the server checks the same and more). */
export const referenceFileRefusal = (file: File) => {
  const typeAccepted = (acceptedStyleReferenceTypes as readonly string[]).includes(uploadContentType(file));
  if (!isAcceptedStyleReference(file.name) || !typeAccepted) return editingStyleMessages.fileType;
  if (file.size > MAX_STYLE_REFERENCE_BYTES) return editingStyleMessages.tooLarge;
  return null;
};

/**
 * Sends a reference photo straight to S3 as profile pictures go (the API signs the request under
 * the photographer's own style folder); it counts once the style is saved with it.
 */
export const uploadStyleReference = async (uid: string, file: File): Promise<StyleReferencePhoto> => {
  const uppy = createDirectUppy({
    id: 'editing-style-reference',
    signUrl: `${EDITING_STYLE_URL}/references/sign`,
    keyPrefix: styleReferencePrefix(uid),
  });
  try {
    let key: string | undefined;
    let failure: unknown;
    uppy.on('upload-success', (_file, response) => {
      key = (response.body as { key?: string } | undefined)?.key;
    });
    uppy.on('upload-error', (_file, error) => {
      failure = error;
    });
    uppy.addFile({ name: file.name, type: uploadContentType(file), data: file, source: 'Local' });
    await uppy.upload();
    if (!key) {
      const cause = failure instanceof Error && failure.cause ? failure.cause : failure;
      throw cause ?? new Error('The upload did not finish');
    }
    return { key, filename: file.name };
  } finally {
    uppy.cancelAll();
    uppy.destroy();
  }
};
