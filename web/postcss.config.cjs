// Mantine's CSS uses its own mixins and rem helpers; this preset compiles them.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
