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
import { uploadContentType, uploadOneFile } from '../../../lib/uploads/direct-s3-upload';

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
  const key = await uploadOneFile(
    {
      id: 'editing-style-reference',
      signUrl: `${EDITING_STYLE_URL}/references/sign`,
      keyPrefix: styleReferencePrefix(uid),
    },
    file,
  );
  return { key, filename: file.name };
};
