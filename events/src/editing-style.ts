import * as z from './zod';

/**
 * A photographer's editing style: the choices real-estate editing orders ask for, saved on the
 * profile (GET/PUT /api/profile/editing-style), sent with each new order (POST /api/orders,
 * changed for that order or not) and kept on the order as it was when it was created; nothing
 * changes it after that, so the editor works to the style the photographer paid for
 * (docs/decisions/0107-editing-style-snapshot.md). The browser and the API validate with these
 * same schemas.
 */
export const skyChoices = ['keep', 'blue', 'blue-clouds', 'sunset'] as const;
export const tvScreenChoices = ['black', 'picture'] as const;
export const whiteBalanceChoices = ['neutral', 'warm'] as const;
export const hdrLookChoices = ['natural', 'bright-airy'] as const;

export const skyLabels: Record<(typeof skyChoices)[number], string> = {
  keep: 'Keep the sky',
  blue: 'Blue sky',
  'blue-clouds': 'Blue sky with clouds',
  sunset: 'Sunset sky',
};
export const tvScreenLabels: Record<(typeof tvScreenChoices)[number], string> = {
  black: 'Black',
  picture: 'A picture',
};
export const whiteBalanceLabels: Record<(typeof whiteBalanceChoices)[number], string> = {
  neutral: 'Neutral',
  warm: 'Warm',
};
export const hdrLookLabels: Record<(typeof hdrLookChoices)[number], string> = {
  natural: 'Natural',
  'bright-airy': 'Bright and airy',
};

export const EDITING_STYLE_NOTES_MAX = 1000;
export const MAX_STYLE_REFERENCE_PHOTOS = 5;
/** A reference photo is a picture to look at, not an original to edit: a phone photo fits. */
export const MAX_STYLE_REFERENCE_BYTES = 10 * 1024 * 1024;
export const acceptedStyleReferenceExtensions = ['jpg', 'jpeg', 'png', 'webp'] as const;
export const acceptedStyleReferenceTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;

const extensionOfName = (filename: string) => {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
};
export const isAcceptedStyleReference = (filename: string) =>
  (acceptedStyleReferenceExtensions as readonly string[]).includes(extensionOfName(filename));

/** Where the browser may write a photographer's reference photos: one name directly under this folder. */
export const styleReferencePrefix = (userId: string) => `profiles/${userId}/style/`;

export const editingStyleMessages = {
  sky: 'Choose how the sky should look',
  tvScreens: 'Choose what TV screens should show',
  whiteBalance: 'Choose a white balance',
  hdrLook: 'Choose an HDR look',
  onOff: 'Choose on or off',
  notes: `Notes may be at most ${EDITING_STYLE_NOTES_MAX} characters`,
  tooManyPhotos: `At most ${MAX_STYLE_REFERENCE_PHOTOS} reference photos`,
  samePhotoTwice: 'A reference photo is listed twice',
  fileType: 'A reference photo must be a JPEG, PNG or WebP image',
  tooLarge: `A reference photo may be at most ${MAX_STYLE_REFERENCE_BYTES / (1024 * 1024)} MB`,
  notYours: 'A reference photo can only be one you saved in your editing style',
} as const;

const onOff = /* @__PURE__ */ z.schema(() => z.boolean({ error: editingStyleMessages.onOff }));

export const styleReferencePhotoInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    key: z.string().check(z.minLength(1), z.maxLength(1024)),
    filename: z.string().check(z.trim(), z.minLength(1, 'The file name is missing'), z.maxLength(255)),
  }),
);
export type StyleReferencePhoto = z.infer<typeof styleReferencePhotoInput>;

/**
 * The style as saved and as sent with an order. Every choice is required (the form always has
 * them all, starting from defaultEditingStyle); unknown fields are refused.
 */
export const editingStyleInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    sky: z.enum(skyChoices, { error: editingStyleMessages.sky }),
    windowPull: onOff,
    lawnGreening: onOff,
    fireplaceFire: onOff,
    tvScreens: z.enum(tvScreenChoices, { error: editingStyleMessages.tvScreens }),
    whiteBalance: z.enum(whiteBalanceChoices, { error: editingStyleMessages.whiteBalance }),
    straightenVerticals: onOff,
    hdrLook: z.enum(hdrLookChoices, { error: editingStyleMessages.hdrLook }),
    notes: z.string().check(z.trim(), z.maxLength(EDITING_STYLE_NOTES_MAX, editingStyleMessages.notes)),
    referencePhotos: z.array(styleReferencePhotoInput).check(
      z.maxLength(MAX_STYLE_REFERENCE_PHOTOS, editingStyleMessages.tooManyPhotos),
      z.refine((photos) => new Set(photos.map((p) => p.key)).size === photos.length, {
        message: editingStyleMessages.samePhotoTwice,
      }),
    ),
  }),
);
export type EditingStyle = z.infer<typeof editingStyleInput>;

/** Where a photographer who never saved a style starts: nothing changed that the photo did not ask for. */
export const defaultEditingStyle: EditingStyle = {
  sky: 'keep',
  windowPull: false,
  lawnGreening: false,
  fireplaceFire: false,
  tvScreens: 'black',
  whiteBalance: 'neutral',
  straightenVerticals: true,
  hdrLook: 'natural',
  notes: '',
  referencePhotos: [],
};

/** A reference photo as the API shows it: a short-lived presigned GET. */
export interface StyleReferencePhotoView extends StyleReferencePhoto {
  url: string;
}

/** GET/PUT /api/profile/editing-style and GET /api/orders/{id}/editing-style. */
export interface EditingStyleView {
  style: EditingStyle;
  referencePhotos: StyleReferencePhotoView[];
  /** Profile: whether the photographer has saved one (else `style` is the default). */
  saved: boolean;
}

/** The style's parts in words, for the editor's card: one line per choice that asks for something. */
export const editingStyleLines = (style: EditingStyle) => [
  { label: 'Sky', value: skyLabels[style.sky] },
  { label: 'HDR look', value: hdrLookLabels[style.hdrLook] },
  { label: 'White balance', value: whiteBalanceLabels[style.whiteBalance] },
  { label: 'TV screens', value: tvScreenLabels[style.tvScreens] },
  { label: 'Window pull', value: style.windowPull ? 'On' : 'Off' },
  { label: 'Lawn greening', value: style.lawnGreening ? 'On' : 'Off' },
  { label: 'Fire in fireplaces', value: style.fireplaceFire ? 'On' : 'Off' },
  { label: 'Verticals straightened', value: style.straightenVerticals ? 'On' : 'Off' },
];

/** The one line the available-orders list shows: the look, then only the extras that are on. */
export const editingStyleSummary = (style: EditingStyle) => {
  const parts = [
    skyLabels[style.sky],
    hdrLookLabels[style.hdrLook],
    `${whiteBalanceLabels[style.whiteBalance].toLowerCase()} white balance`,
    `TVs ${tvScreenLabels[style.tvScreens].toLowerCase()}`,
    ...(style.windowPull ? ['window pull'] : []),
    ...(style.lawnGreening ? ['lawn greening'] : []),
    ...(style.fireplaceFire ? ['fire in fireplaces'] : []),
    ...(style.straightenVerticals ? ['verticals straightened'] : []),
    ...(style.referencePhotos.length ? [`${style.referencePhotos.length} reference photo(s)`] : []),
  ];
  return parts.join(' · ');
};
