import { signUploadInput } from '@marketplace/events/orders';
import { styleReferenceUploads } from '../../domain/editing-style';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { signUploadRequests } from '../uploads/direct-upload';

/** Signs the S3 request of a reference photo's upload, only under the photographer's own style folder. */
export const handler = http({ body: signUploadInput }, async ({ body, user }) =>
  ok(await signUploadRequests(styleReferenceUploads, user.userId, body)),
);
