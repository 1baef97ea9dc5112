import { createTheme, type MantineColorsTuple } from '@mantine/core';

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
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { withBorder: true, radius: 'lg', padding: 'lg' } },
    Paper: { defaultProps: { radius: 'lg' } },
  },
});
