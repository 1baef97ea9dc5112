import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequest, HttpError } from './errors';

/**
 * A Lambda request body is at most 6 MB and arrives base64-encoded (4/3 larger), so a whole
 * multipart body is capped at 4 MB; anything bigger belongs to the direct upload flow.
 */
export const MAX_MULTIPART_BODY_BYTES = 4 * 1024 * 1024;

const rawBody = (event: APIGatewayProxyEventV2) => {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
};

/** The words a route answers with when its body is not multipart, or is too large for it. */
export interface MultipartMessages {
  notMultipart: string;
  tooLarge: string;
}

export const readMultipartForm = async (event: APIGatewayProxyEventV2, messages: MultipartMessages) => {
  const contentType = event.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw new BadRequest(messages.notMultipart);
  const body = rawBody(event);
  if (body.length > MAX_MULTIPART_BODY_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', messages.tooLarge);
  try {
    // Node's own fetch Request parses multipart bodies: no extra dependency.
    return await new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
  } catch {
    throw new BadRequest('The multipart body could not be read', undefined, 'INVALID_MULTIPART');
  }
};

/** A file part of a parsed form (a string part is a plain field). */
export type UploadedFile = Exclude<ReturnType<FormData['get']>, string | null>;
