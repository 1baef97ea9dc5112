import { File } from 'node:buffer';
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

/** A file part of a parsed form (a string part is a plain field). */
export type UploadedFile = File;

/** A parsed form, read as FormData is: the first value of a name, all of them, or every entry, in order. */
export interface MultipartForm {
  get(name: string): string | UploadedFile | null;
  getAll(name: string): (string | UploadedFile)[];
  entries(): [string, string | UploadedFile][];
}

/*
 * multipart/form-data parsed as the Fetch standard's Body.formData() parses it, step for step as
 * Node's own fetch implementation (undici) does, so a body is read, or refused, exactly as it was
 * when the routes read it with `new Request(...).formData()`: that loaded Node's HTTP client
 * (undici, about 25 ms of CPU) on the first call of the two routes that take a form.
 */

const HTTP_TOKEN = /^[!#$%&'*+\-.^_|~A-Za-z0-9]+$/;
const HTTP_QUOTED_STRING_TOKENS = /^[\t\u0020-\u007E\u0080-\u00FF]+$/;
const isHttpWhitespace = (code: number) => code === 13 || code === 10 || code === 9 || code === 32;

const trimmed = (text: string, leading: boolean, trailing: boolean, strip: (code: number) => boolean) => {
  let lead = 0;
  let trail = text.length - 1;
  if (leading) while (lead < text.length && strip(text.charCodeAt(lead))) lead++;
  if (trailing) while (trail > 0 && strip(text.charCodeAt(trail))) trail--;
  return lead === 0 && trail === text.length - 1 ? text : text.slice(lead, trail + 1);
};

interface Position {
  at: number;
}

const collectWhile = (input: string, position: Position, keep: (char: string) => boolean) => {
  let result = '';
  while (position.at < input.length && keep(input[position.at]!)) result += input[position.at++];
  return result;
};

const collectUntil = (input: string, position: Position, char: string) => {
  const start = position.at;
  const found = input.indexOf(char, start);
  position.at = found === -1 ? input.length : found;
  return input.slice(start, position.at);
};

/** An HTTP quoted string from the opening quote: its value, or (extractValue false) the string as written. */
const quotedString = (input: string, position: Position, extractValue: boolean) => {
  const start = position.at;
  let value = '';
  position.at++;
  for (;;) {
    value += collectWhile(input, position, (char) => char !== '"' && char !== '\\');
    if (position.at >= input.length) break;
    const quoteOrBackslash = input[position.at++];
    if (quoteOrBackslash === '\\') {
      if (position.at >= input.length) {
        value += '\\';
        break;
      }
      value += input[position.at++];
    } else break;
  }
  return extractValue ? value : input.slice(start, position.at);
};

interface MimeType {
  essence: string;
  parameters: Map<string, string>;
}

/** The MIME Sniffing standard's "parse a MIME type". */
const parseMimeType = (text: string): MimeType | null => {
  const input = trimmed(text, true, true, isHttpWhitespace);
  const position = { at: 0 };
  const type = collectUntil(input, position, '/');
  if (!type.length || !HTTP_TOKEN.test(type) || position.at > input.length) return null;
  position.at++;
  const subtype = trimmed(collectUntil(input, position, ';'), false, true, isHttpWhitespace);
  if (!subtype.length || !HTTP_TOKEN.test(subtype)) return null;
  const mimeType = { essence: `${type.toLowerCase()}/${subtype.toLowerCase()}`, parameters: new Map<string, string>() };
  while (position.at < input.length) {
    position.at++;
    collectWhile(input, position, (char) => /[\n\r\t ]/.test(char));
    const name = collectWhile(input, position, (char) => char !== ';' && char !== '=').toLowerCase();
    if (position.at < input.length) {
      if (input[position.at] === ';') continue;
      position.at++;
    }
    if (position.at > input.length) break;
    let value: string;
    if (input[position.at] === '"') {
      value = quotedString(input, position, true);
      collectUntil(input, position, ';');
    } else {
      value = trimmed(collectUntil(input, position, ';'), false, true, isHttpWhitespace);
      if (!value.length) continue;
    }
    if (
      name.length &&
      HTTP_TOKEN.test(name) &&
      (!value.length || HTTP_QUOTED_STRING_TOKENS.test(value)) &&
      !mimeType.parameters.has(name)
    ) {
      mimeType.parameters.set(name, value);
    }
  }
  return mimeType;
};

/**
 * The Fetch standard's "extract a MIME type" from a Content-Type header: the value is split on
 * commas outside quoted strings, and the last value that parses (and is not *\/*) wins.
 */
const extractMimeType = (header: string) => {
  const position = { at: 0 };
  const values: string[] = [];
  let value = '';
  while (position.at < header.length) {
    value += collectWhile(header, position, (char) => char !== '"' && char !== ',');
    if (position.at < header.length) {
      if (header[position.at] === '"') {
        value += quotedString(header, position, false);
        if (position.at < header.length) continue;
      } else position.at++;
    }
    values.push(trimmed(value, true, true, (code) => code === 9 || code === 32));
    value = '';
  }
  let mimeType: MimeType | null = null;
  for (const candidate of values) {
    const parsed = parseMimeType(candidate);
    if (parsed && parsed.essence !== '*/*') mimeType = parsed;
  }
  return mimeType;
};

const DASH_DASH = Buffer.from('--');
const DASH_DASH_CRLF = Buffer.from('--\r\n');
const FORM_DATA_NAME = Buffer.from('form-data; name="');
const FILENAME = Buffer.from('; filename');

const startsWithAt = (input: Buffer, start: Buffer, at: number) => {
  if (input.length < start.length) return false;
  for (let i = 0; i < start.length; i++) if (start[i] !== input[at + i]) return false;
  return true;
};

const collectBytes = (input: Buffer, position: Position, keep: (byte: number) => boolean) => {
  let end = position.at;
  while (end < input.length && keep(input[end]!)) end++;
  const bytes = input.subarray(position.at, end);
  position.at = end;
  return bytes;
};

const trimmedBytes = (bytes: Buffer, leading: boolean, trailing: boolean) => {
  const strip = (byte: number) => byte === 9 || byte === 32;
  let lead = 0;
  let trail = bytes.length - 1;
  if (leading) while (lead < bytes.length && strip(bytes[lead]!)) lead++;
  if (trailing) while (trail > 0 && strip(bytes[trail]!)) trail--;
  return lead === 0 && trail === bytes.length - 1 ? bytes : bytes.subarray(lead, trail + 1);
};

const latin1 = (bytes: Buffer) => bytes.toString('latin1');

/** A quoted name or filename: UTF-8, with the %0A, %0D and %22 a browser writes for LF, CR and '"'. */
const partName = (input: Buffer, position: Position) => {
  const bytes = collectBytes(input, position, (byte) => byte !== 10 && byte !== 13 && byte !== 34);
  if (input[position.at] !== 34) return null;
  position.at++;
  return new TextDecoder().decode(bytes).replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%22/g, '"');
};

interface PartHeaders {
  name: string;
  filename: string | null;
  contentType: string | null;
  encoding: string | null;
}

const partHeaders = (input: Buffer, position: Position): PartHeaders | null => {
  let name: string | null = null;
  let filename: string | null = null;
  let contentType: string | null = null;
  let encoding: string | null = null;
  for (;;) {
    if (input[position.at] === 13 && input[position.at + 1] === 10) {
      return name === null ? null : { name, filename, contentType, encoding };
    }
    const headerName = trimmedBytes(
      collectBytes(input, position, (byte) => byte !== 10 && byte !== 13 && byte !== 58),
      true,
      true,
    );
    if (!HTTP_TOKEN.test(headerName.toString())) return null;
    if (input[position.at] !== 58) return null;
    position.at++;
    collectBytes(input, position, (byte) => byte === 32 || byte === 9);
    const headerValue = () =>
      latin1(
        trimmedBytes(
          collectBytes(input, position, (byte) => byte !== 10 && byte !== 13),
          false,
          true,
        ),
      );
    switch (latin1(headerName).toLowerCase()) {
      case 'content-disposition': {
        name = filename = null;
        if (!startsWithAt(input, FORM_DATA_NAME, position.at)) return null;
        position.at += FORM_DATA_NAME.length;
        name = partName(input, position);
        if (name === null) return null;
        if (startsWithAt(input, FILENAME, position.at)) {
          let check = position.at + FILENAME.length;
          if (input[check] === 42) {
            position.at += 1;
            check += 1;
          }
          if (input[check] !== 61 || input[check + 1] !== 34) return null;
          position.at += 12;
          filename = partName(input, position);
          if (filename === null) return null;
        }
        break;
      }
      case 'content-type':
        contentType = headerValue();
        break;
      case 'content-transfer-encoding':
        encoding = headerValue();
        break;
      default:
        collectBytes(input, position, (byte) => byte !== 10 && byte !== 13);
    }
    // As undici checks the line's end (either byte missing refuses only when both are).
    if (input[position.at] !== 13 && input[position.at + 1] !== 10) return null;
    position.at += 2;
  }
};

const utf8Text = (bytes: Buffer) => {
  if (!bytes.length) return '';
  const withoutBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  return new TextDecoder().decode(withoutBom);
};

type Entry = { name: string; value: string | UploadedFile };

/** The Fetch standard's "multipart/form-data parser": the entries, or null for a body it refuses. */
const parseEntries = (body: Buffer, boundaryText: string): Entry[] | null => {
  const boundary = Buffer.from(`--${boundaryText}`, 'utf8');
  const entries: Entry[] = [];
  const position = { at: 0 };
  while (body[position.at] === 13 && body[position.at + 1] === 10) position.at += 2;
  let trailing = body.length;
  while (body[trailing - 1] === 10 && body[trailing - 2] === 13) trailing -= 2;
  const input = trailing === body.length ? body : body.subarray(0, trailing);
  for (;;) {
    if (!input.subarray(position.at, position.at + boundary.length).equals(boundary)) return null;
    position.at += boundary.length;
    if (
      (position.at === input.length - 2 && startsWithAt(input, DASH_DASH, position.at)) ||
      (position.at === input.length - 4 && startsWithAt(input, DASH_DASH_CRLF, position.at))
    ) {
      return entries;
    }
    if (input[position.at] !== 13 || input[position.at + 1] !== 10) return null;
    position.at += 2;
    const headers = partHeaders(input, position);
    if (!headers) return null;
    position.at += 2;
    const boundaryAt = input.indexOf(boundary.subarray(2), position.at);
    if (boundaryAt === -1) return null;
    let content = input.subarray(position.at, boundaryAt - 4);
    position.at += content.length;
    if (headers.encoding === 'base64') content = Buffer.from(content.toString(), 'base64');
    if (input[position.at] !== 13 || input[position.at + 1] !== 10) return null;
    position.at += 2;
    if (headers.filename !== null) {
      let type = headers.contentType ?? 'text/plain';
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a type outside ASCII is no type
      if (/[^\u0000-\u007F]/.test(type)) type = '';
      entries.push({ name: headers.name, value: new File([content], headers.filename, { type }) });
    } else {
      entries.push({ name: headers.name, value: utf8Text(Buffer.from(content)) });
    }
  }
};

/** The form, or null where Body.formData() would throw: no usable Content-Type, no boundary, a malformed body. */
export const parseMultipartForm = (contentType: string, body: Buffer): MultipartForm | null => {
  // The Headers the request was built with: a value is trimmed of HTTP whitespace, and one with
  // NUL, CR, LF or a character above U+00FF is refused.
  const header = trimmed(contentType, true, true, isHttpWhitespace);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what a header value may not hold
  if (/[\u0000\r\n]|[^\u0000-\u00FF]/.test(header)) return null;
  const mimeType = extractMimeType(header);
  if (mimeType?.essence !== 'multipart/form-data') return null;
  const boundary = mimeType.parameters.get('boundary');
  if (boundary === undefined) return null;
  const entries = parseEntries(body, boundary);
  if (!entries) return null;
  return {
    get: (name) => entries.find((entry) => entry.name === name)?.value ?? null,
    getAll: (name) => entries.filter((entry) => entry.name === name).map((entry) => entry.value),
    entries: () => entries.map((entry) => [entry.name, entry.value]),
  };
};

export const readMultipartForm = async (
  event: APIGatewayProxyEventV2,
  messages: MultipartMessages,
): Promise<MultipartForm> => {
  const contentType = event.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw new BadRequest(messages.notMultipart);
  const body = rawBody(event);
  if (body.length > MAX_MULTIPART_BODY_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', messages.tooLarge);
  const form = parseMultipartForm(contentType, body);
  if (!form) throw new BadRequest('The multipart body could not be read', undefined, 'INVALID_MULTIPART');
  return form;
};
