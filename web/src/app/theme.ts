import {
  createTheme,
  darken,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

/** A calm deep teal-blue: trustworthy and quiet next to the colourful listing photos it frames. */
const harbor: MantineColorsTuple = [
  '#e6f4f7',
  '#d5e8ed',
  '#aacfdb',
  '#7cb5c8',
  '#569fb8',
  '#3d91ae',
  '#2f8aaa',
  '#207795',
  '#116a86',
  '#005c76',
];

/**
 * Light variants (status badges, initials avatars) draw shade 8 on a pale tint of the same colour,
 * which for green, yellow, orange and friends falls below 4.5:1. Their text gets a darkened shade 9
 * instead; the brand colour already passes and keeps its own.
 */
const readableLightVariants: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light' || !input.color) return colors;
  const parsed = parseThemeColor({ color: input.color, theme: input.theme });
  if (!parsed.isThemeColor || parsed.color === input.theme.primaryColor) return colors;
  const darkest = input.theme.colors[parsed.color]?.[9];
  return darkest ? { ...colors, color: darken(darkest, 0.35) } : colors;
};

export const theme = createTheme({
  primaryColor: 'harbor',
  primaryShade: { light: 8, dark: 6 },
  colors: { harbor },
  // A deep blue-grey instead of pure black: softer on the eye, same contrast class.
  black: '#17262f',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    fontWeight: '650',
  },
  focusRing: 'auto',
  variantColorResolver: readableLightVariants,
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { withBorder: true, radius: 'lg', padding: 'lg' } },
    Paper: { defaultProps: { radius: 'lg' } },
    // Close buttons are bare icons: give them a name screen readers can announce.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } },
  },
});
